extension DataStoreReadAccessor {
    /// The relations of `itemType` — those whose items of `itemType` refer to another item:
    /// declared with ``DataStoreReadWriteAccessor/ensureRelation(ofType:on:to:onDelete:name:)`` and,
    /// in an adopted SQL table, the foreign keys it already had.
    ///
    /// ```swift
    /// let relations = try store.read { accessor in try accessor.relations(ofType: "Track") }
    /// for relation in relations { print(relation) }   // Track(albumId) → Album, on delete cascade
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for an invalid type name.
    public func relations(ofType itemType: String) throws -> [DataStoreRelation] {
        try checkActiveAndFlushPendingChanges()
        try context.locating { try NameRules.validateItemType(itemType) }
        let wanted = TypeNameKey(name: itemType, byBytes: reader.comparesTypeNamesByBytes)
        return try currentRelations().filter { TypeNameKey(name: $0.itemType, byBytes: wanted.byBytes) == wanted }
    }

    /// The item that `item` refers to through `relation`, or `nil` when its referring attributes
    /// are missing or null.
    ///
    /// ```swift
    /// let album = try store.read { accessor in try accessor.relatedItem(of: track, via: byAlbum) }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` when `item` is not of the relation's item
    ///   type; ``DataStoreError/Code/referenceViolation`` when it refers to an item that is not
    ///   stored, or holds a value no identifier can be.
    public func relatedItem(of item: Item, via relation: DataStoreRelation) throws -> Item? {
        try checkActiveAndFlushPendingChanges()
        try context.locating { try RelationRules.checkFollowed(relation, from: item) }
        switch relation.referredID(in: item, shape: try referringShape(of: relation)) {
        case .none:
            return nil
        case .notAnIdentifier(let name, let value):
            throw ReferenceViolations.notAnIdentifier(item.reference, relation, name, value).located(at: context.location)
        case .id(let id):
            if let related = try context.locating({ try reader.item(ofType: relation.relatedType, id: id) }) {
                return related
            }
            throw ReferenceViolations.missing(item.reference, relation, id).located(at: context.location)
        }
    }

    /// The items that refer to `item` through `relation`, in identifier order.
    ///
    /// ```swift
    /// let tracks = try store.read { accessor in try accessor.items(relatedTo: album, via: byAlbum) }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` when `item` is not of the relation's
    ///   related type.
    public func items(relatedTo item: Item, via relation: DataStoreRelation) throws -> [Item] {
        try checkActiveAndFlushPendingChanges()
        try context.locating { try RelationRules.checkFollowed(relation, to: item.reference) }
        return try referrers(of: item.id, via: relation)
    }

    /// The engine's relations, or the scheduler's declarations and this block's.
    func currentRelations() throws -> [DataStoreRelation] {
        if let own = try context.locating({ try reader.relations() }) { return own }
        return context.relationCatalog.relations + context.declaredRelations
    }
}

extension DataStore {
    /// The relations of `itemType`, read in a read block
    /// (see ``DataStoreReadAccessor/relations(ofType:)``).
    ///
    /// ```swift
    /// for relation in try store.relations(ofType: "Track") { print(relation.name) }
    /// ```
    public func relations(ofType itemType: String) throws -> [DataStoreRelation] {
        try read { accessor in try accessor.relations(ofType: itemType) }
    }
}
