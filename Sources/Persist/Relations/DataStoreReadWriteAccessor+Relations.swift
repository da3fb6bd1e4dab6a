extension DataStoreReadWriteAccessor {
    /// Declares that the items of `itemType` refer, through `attributes`, to items of
    /// `relatedType`, whose identifiers those attributes hold (one attribute per component of a
    /// composite identifier), and what deleting a referred item does (`onDelete`). Returns the
    /// relation: the new one, or the one of the same rules the store already had, so calling it
    /// again is harmless and an application may declare its relations at every launch.
    ///
    /// From then on, on every store (<doc:Relations>):
    /// - a block that leaves an item referring to an item that is not stored fails with
    ///   ``DataStoreError/Code/referenceViolation``, and nothing of it is kept;
    /// - deleting a referred item applies `onDelete`: ``DataStoreRelation/DeleteRule/deny``
    ///   refuses the block while a referring item remains, ``DataStoreRelation/DeleteRule/cascade``
    ///   deletes the referring items (and theirs), ``DataStoreRelation/DeleteRule/nullify`` clears
    ///   their referring attributes.
    ///
    /// An index on `attributes` is declared with it, so that finding the referring items does not
    /// read every item of the type. On an SQL store the relation is a foreign key.
    ///
    /// ```swift
    /// let byAlbum = try store.writeSync { accessor in
    ///     try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .cascade)
    /// }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/referenceViolation`` naming the first stored item that
    ///   already breaks the relation; ``DataStoreError/Code/invalidArgument``, naming the relation,
    ///   for invalid names, no or repeated attributes, attributes that cannot hold the related
    ///   type's identifiers (another number of them, or values of another kind), a related type
    ///   without a key, a name the type's relations already use with other rules, or a `.cascade`
    ///   rule that would close a cycle of cascades through two or more types. Nothing is declared.
    @discardableResult
    public func ensureRelation(ofType itemType: String, on attributes: [String], to relatedType: String,
                               onDelete: DataStoreRelation.DeleteRule, name: String? = nil) throws -> DataStoreRelation {
        try checkActiveAndFlushPendingChanges()
        let relation = DataStoreRelation(itemType: itemType, attributes: attributes, relatedType: relatedType,
                                         onDelete: onDelete, name: name)
        let byBytes = writer.comparesTypeNamesByBytes
        if let existing = try context.locating({
            try RelationRules.checkDeclaration(relation, among: currentRelations(), byBytes: byBytes)
        }) {
            return existing
        }
        if relation.onDelete == .nullify, try referringShape(of: relation).usesKey {
            throw DataStoreError(
                .invalidArgument, "the relation \(relation.name) (\(relation)) would clear key columns of \(itemType), "
                    + "which hold its identifiers; declare it .deny or .cascade", path: context.location)
        }
        try context.locating { try checkStoredItems(against: relation) }
        if try context.locating({ try writer.ensureRelation(relation) }) == nil {
            context.declaredRelations.append(relation)
        }
        relationTracker = nil
        try ensureIndex(ofType: itemType, on: attributes, unique: false)
        return relation
    }

    /// Refuses `relation` when the related type's identifiers do not fit its attributes, or when a
    /// stored item already breaks it.
    private func checkStoredItems(against relation: DataStoreRelation) throws {
        var sampleRequest = DataStoreRequest(itemType: relation.relatedType)
        sampleRequest.ordering = .unspecified
        sampleRequest.limit = 1
        let sample = try writer.items(matching: sampleRequest).first?.id
        if let sample { try RelationRules.checkShape(relation, sample: sample, referrer: nil) }
        var request = DataStoreRequest(itemType: relation.itemType)
        request.ordering = .sorted
        var broken: DataStoreError?
        try writer.forEachItem(matching: request) { item in
            if let sample { try RelationRules.checkShape(relation, sample: sample, referrer: item) }
            broken = try brokenReference(of: item, via: relation)
            return broken == nil
        }
        if let broken { throw broken }
    }

    // MARK: Tracking the block's writes

    /// The block's relations, loaded at its first write.
    private func tracker() throws -> RelationTracker {
        if let relationTracker { return relationTracker }
        let loaded = RelationTracker(try currentRelations(), byBytes: writer.comparesTypeNamesByBytes)
        relationTracker = loaded
        return loaded
    }

    /// Whether items of `itemType` refer to others through a relation.
    func referrerType(_ itemType: String) throws -> Bool {
        try tracker().refers(itemType)
    }

    /// Whether a relation refers to items of `itemType`.
    func refersToType(_ itemType: String) throws -> Bool {
        let tracker = try tracker()
        return !tracker.isEmpty && tracker.incoming[itemType] != nil
    }

    /// Notes a written item whose references the block checks when it ends.
    func noteReferrer(_ id: ItemID, ofType itemType: String) throws {
        guard try referrerType(itemType) else { return }
        relationTracker?.noteWritten(ItemReference(itemType: itemType, id: id))
    }

    /// Notes the items a set-based update changes a referring attribute of.
    func noteReferrers(updating request: DataStoreRequest, setting values: [String: Value]) throws {
        let tracker = try tracker()
        guard let relations = tracker.outgoing[request.itemType], !tracker.isEmpty,
              relations.contains(where: { $0.attributes.contains { values[$0] != nil } }) else { return }
        try context.locating {
            try writer.forEachItem(matching: request) { item in
                relationTracker?.noteWritten(item.reference)
                return true
            }
        }
    }

    // MARK: Deleting referred items

    /// Deletes one item of a type that relations refer to, applying their delete rules.
    func deleteApplyingRules(ofType itemType: String, id: ItemID) throws -> Bool {
        var visited: Set<ItemReference> = [ItemReference(itemType: itemType, id: id)]
        try applyDeleteRules(ofType: itemType, ids: [id], visited: &visited)
        let deleted = try context.locating { try writer.deleteItem(ofType: itemType, id: id) }
        try refreshReferrers(ofType: itemType)
        return deleted
    }

    /// Deletes the items `request` selects, of a type that relations refer to, applying their
    /// delete rules first; `delete` deletes them. Returns how many it selected: every one is
    /// deleted, though an engine may not count those its foreign key's cascade deleted first (an
    /// item whose manager the same statement deleted, under a cascading relation of the type to
    /// itself: SQLite counts only the rows the statement deleted directly).
    func deleteApplyingRules(matching request: DataStoreRequest, _ delete: () throws -> Int) throws -> Int {
        let ids = try context.locating { try writer.items(matching: request).map(\.id) }
        var visited = Set(ids.map { ItemReference(itemType: request.itemType, id: $0) })
        try applyDeleteRules(ofType: request.itemType, ids: ids, visited: &visited)
        _ = try delete()
        try refreshReferrers(ofType: request.itemType)
        return ids.count
    }

    /// Applies the delete rule of every relation to `itemType` for the items `ids`, which are
    /// about to be deleted: notes them for `.deny`, deletes the referring items for `.cascade`
    /// (applying their own rules first), clears the referring attributes for `.nullify` — the last
    /// two unless the engine carries the rule out itself. The rules of the items an engine's
    /// cascade deletes are applied all the same: a relation to them may be no foreign key (a
    /// composite one), or a `.deny` whose error should name the items.
    private func applyDeleteRules(ofType itemType: String, ids: [ItemID], visited: inout Set<ItemReference>) throws {
        for relation in try tracker().incoming[itemType] ?? [] {
            let applied = writer.appliesDeleteRule(of: relation)
            let referrersHaveRules = try refersToType(relation.itemType)
            for id in ids {
                switch relation.onDelete {
                case .deny:
                    relationTracker?.noteDeleted(ItemReference(itemType: itemType, id: id))
                case .cascade where !applied || referrersHaveRules:
                    let referring = try referrers(of: id, via: relation).map(\.reference).filter { visited.insert($0).inserted }
                    guard !referring.isEmpty else { continue }
                    if referrersHaveRules {
                        try applyDeleteRules(ofType: relation.itemType, ids: referring.map(\.id), visited: &visited)
                    }
                    // The engine deletes them itself when it carries out the rule.
                    guard !applied else { continue }
                    for reference in referring {
                        forget(reference)
                        _ = try context.locating { try writer.deleteItem(ofType: reference.itemType, id: reference.id) }
                    }
                case .nullify where !applied:
                    // A relation held in key columns is never nullified: its declaration is refused.
                    let cleared = Dictionary(uniqueKeysWithValues: relation.attributes.map { ($0, Value.null) })
                    for item in try referrers(of: id, via: relation) {
                        try context.locating { try writer.save(item.setting(cleared)) }
                    }
                default:
                    continue
                }
            }
        }
    }

    /// Reads again the mutable items of the types that refer to `itemType`, which a cascade or a
    /// nullification may have changed.
    private func refreshReferrers(ofType itemType: String) throws {
        guard !registry.isEmpty else { return }
        var refreshed: Set<String> = []
        var pending = [itemType]
        while let type = pending.popLast() {
            for relation in try tracker().incoming[type] ?? [] where refreshed.insert(relation.itemType).inserted {
                try refreshMutableItems(ofType: relation.itemType)
                if relation.onDelete == .cascade { pending.append(relation.itemType) }
            }
        }
    }

    // MARK: The checks when the block ends

    /// Refuses the block when an item it wrote refers to an item that is not stored, or when an
    /// item it deleted is still referred to through a `.deny` relation. Runs before the commit.
    func checkReferences() throws {
        guard let tracker = relationTracker, !tracker.isEmpty else { return }
        // In identifier order, so that the error names the same first broken reference whatever
        // order the block wrote in.
        let written = tracker.written.sorted { lhs, rhs in
            let types = ByteOrder.compare(lhs.itemType, rhs.itemType)
            return types != 0 ? types < 0 : lhs.id < rhs.id
        }
        try context.locating {
            for reference in written {
                guard let item = try writer.item(ofType: reference.itemType, id: reference.id) else { continue }
                for relation in tracker.outgoing[reference.itemType] ?? [] {
                    if let broken = try brokenReference(of: item, via: relation) { throw broken }
                }
            }
            for reference in tracker.deleted {
                guard try writer.item(ofType: reference.itemType, id: reference.id) == nil else { continue }
                for relation in tracker.incoming[reference.itemType] ?? [] where relation.onDelete == .deny {
                    var referrer: Item?
                    try forEachReferrer(of: reference.id, via: relation) { item in
                        referrer = item
                        return false
                    }
                    if let referrer { throw ReferenceViolations.stillReferred(reference, by: referrer.reference, relation) }
                }
            }
        }
    }

    /// The error of `item`'s reference through `relation` when it is broken, `nil` when it holds.
    private func brokenReference(of item: Item, via relation: DataStoreRelation) throws -> DataStoreError? {
        switch relation.referredID(in: item, shape: try referringShape(of: relation)) {
        case .none:
            return nil
        case .notAnIdentifier(let name, let value):
            return ReferenceViolations.notAnIdentifier(item.reference, relation, name, value)
        case .id(let id):
            if try writer.item(ofType: relation.relatedType, id: id) != nil { return nil }
            return ReferenceViolations.missing(item.reference, relation, id)
        }
    }
}
