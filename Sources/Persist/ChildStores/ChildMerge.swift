internal import HashTreeCollections

/// Merging a child store into its parent.
enum ChildMerge {
    /// Applies every change of `child` to `parent` in one write block, resolving conflicts by
    /// `policy`, then empties the child.
    static func merge(_ child: any DataStore, into parent: any DataStore, policy: MergePolicy) throws {
        guard let child = child as? ChildDataStore else {
            throw DataStoreError(.misuse, "\(child.location) is not a child store; only stores made by makeChildDataStore() can be merged",
                                 path: parent.location)
        }
        guard child !== parent as AnyObject else {
            throw DataStoreError(.misuse, "\(child.location) cannot be merged into itself; merge it into its parent, "
                                 + "\(child.parent.location)", path: child.location)
        }
        guard child.parent === parent else {
            throw DataStoreError(.misuse, "\(child.location) is a child of another store, not of \(parent.location)",
                                 path: parent.location)
        }
        // On the child's write queue: its queued writes finish first and none starts until the merge ends.
        try child.scheduler.performExclusive(named: "merge") {
            let changes = child.engine.changes
            let indexes = child.engine.declaredIndexes
            let relations = child.engine.declaredRelations
            guard !changes.isEmpty || !indexes.isEmpty || !relations.isEmpty else { return }
            let dropped = try parent.writeSync { accessor in
                let dropped = try apply(changes, to: accessor, policy: policy, parent: parent.location)
                // The indexes last, over the merged items: the child's items held to them, so a
                // child that removed duplicates before declaring one merges; a duplicate the
                // parent made meanwhile refuses the declaration, and the merge fails whole.
                for index in indexes {
                    try accessor.ensureIndex(ofType: index.itemType, on: index.attributes, unique: index.isUnique)
                }
                // Relations too, over the merged items: one the parent's items break since fails
                // the merge whole.
                for relation in relations {
                    try accessor.ensureRelation(ofType: relation.itemType, on: relation.attributes, to: relation.relatedType,
                                                onDelete: relation.onDelete, name: relation.name)
                }
                return dropped
            }
            child.engine.clear()
            if !dropped.isEmpty {
                child.scheduler.logger.info(
                    "merge kept the parent's version of \(dropped.count) conflicting item(s)",
                    metadata: ["store": .string(parent.location)])
            }
        }
    }

    /// Applies the changes; returns the conflicting items whose parent version was kept.
    ///
    /// Deletes are applied before saves; each runs type by type in identifier order, which keeps
    /// the target's pages in the order its keys are stored (a B-tree writes far faster in key order
    /// than in hash order).
    private static func apply(
        _ changes: ChildChanges, to accessor: DataStoreReadWriteAccessor, policy: MergePolicy, parent: String
    ) throws -> [ItemReference] {
        // Each type's changes in identifier order, sorted as positions: the sort then moves
        // integers, not the changes with their items.
        // Keys carry the type's spelling: on a parent that keeps spellings apart, each its own.
        let ordered = changes.keys.sorted { ByteOrder.compare($0.name, $1.name) < 0 }.map { typeKey in
            let entries = Array(changes[typeKey] ?? [:])
            let ids = entries.map(\.key)
            return (typeKey.name, entries, ids.indices.sorted { ids[$0] < ids[$1] })
        }
        var conflicts: Set<ItemReference> = []
        if policy != .childWins {
            for (itemType, entries, order) in ordered {
                for position in order {
                    let (id, change) = entries[position]
                    // Any change since the child's base is a conflict, even one that happens to end
                    // in the value the child wants: the child's other changes were computed without it.
                    if ItemDigest.of(try accessor.item(ofType: itemType, id: id)) != change.base {
                        conflicts.insert(ItemReference(itemType: itemType, id: id))
                    }
                }
            }
            if policy == .fail && !conflicts.isEmpty {
                let sorted = conflicts.sorted { ($0.itemType, $0.id) < ($1.itemType, $1.id) }
                let listed = sorted.prefix(10).map(\.description).joined(separator: ", ")
                throw DataStoreError(
                    .conflict,
                    "\(sorted.count) item(s) changed both in the child and in \(parent) since the child changed them "
                        + "(\(listed)\(sorted.count > 10 ? ", …" : "")); nothing was merged",
                    path: parent, items: sorted)
            }
        }
        // Deletes first, then saves: a child that deleted an item and gave its unique value to
        // another merges as it reads, the value freed before it is taken again. Saves go in the
        // order that frees a unique value before it is taken (see MergeSaveOrder).
        func kept(_ itemType: String, _ id: ItemID) -> Bool {
            conflicts.isEmpty || !conflicts.contains(ItemReference(itemType: itemType, id: id))
        }
        for (itemType, entries, order) in ordered {
            for position in order where entries[position].value.item == nil && kept(itemType, entries[position].key) {
                try accessor.deleteItem(ofType: itemType, id: entries[position].key)
            }
        }
        for (itemType, entries, order) in ordered {
            let saves = order.compactMap { position in
                kept(itemType, entries[position].key) ? entries[position].value.item : nil
            }
            let indexes = try accessor.uniqueIndexes(ofType: itemType)
            let saveOrder = try MergeSaveOrder(saves, indexes: indexes) { id in
                try accessor.item(ofType: itemType, id: id)
            }
            let unique = Set(indexes.flatMap(\.attributes))
            for item in saveOrder.releases { try MergeRelease.save(item, unique: unique, in: accessor) }
            for item in saveOrder.saves { try accessor.save(item) }
        }
        return conflicts.sorted { ($0.itemType, $0.id) < ($1.itemType, $1.id) }
    }
}
