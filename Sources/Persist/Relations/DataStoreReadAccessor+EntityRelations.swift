extension DataStoreReadAccessor {
    /// The entity that `entity` refers to through `relation`, decoded as `type`; `nil` when its
    /// referring properties are `nil`.
    ///
    /// ```swift
    /// let album = try store.read { accessor -> Album? in
    ///     guard let track = try accessor.getById(Track.self, id: 12) else { return nil }
    ///     return try accessor.related(Album.self, of: track, via: trackAlbum)
    /// }
    /// ```
    ///
    /// - Throws: as ``relatedItem(of:via:)``; ``DataStoreError/Code/invalidArgument`` when `type`
    ///   is not stored as the relation's related type.
    public func related<R: DataStoreEntity, E: DataStoreEntity>(_ type: R.Type, of entity: E,
                                                                 via relation: DataStoreRelation) throws -> R? {
        try context.locating { try Self.check(R.self, isStoredAs: relation.relatedType) }
        let item = try context.locating(entity.makeItem)
        guard let related = try relatedItem(of: item, via: relation) else { return nil }
        return try context.locating { try R(item: related) }
    }

    /// The entities of `type` that refer to `entity` through `relation`, in identifier order.
    ///
    /// ```swift
    /// let tracks = try store.read { accessor -> [Track] in
    ///     guard let album = try accessor.getById(Album.self, id: 3) else { return [] }
    ///     return try accessor.getAll(Track.self, relatedTo: album, via: trackAlbum)
    /// }
    /// ```
    ///
    /// - Throws: as ``items(relatedTo:via:)``; ``DataStoreError/Code/invalidArgument`` when `type`
    ///   is not stored as the relation's item type.
    public func getAll<R: DataStoreEntity, E: DataStoreEntity>(_ type: R.Type, relatedTo entity: E,
                                                                via relation: DataStoreRelation) throws -> [R] {
        try context.locating { try Self.check(R.self, isStoredAs: relation.itemType) }
        let item = try context.locating(entity.makeItem)
        return try items(relatedTo: item, via: relation).map { item in try context.locating { try R(item: item) } }
    }

    private static func check<R: DataStoreEntity>(_ type: R.Type, isStoredAs itemType: String) throws {
        guard R.itemType == itemType else {
            throw DataStoreError.invalidArgument("\(R.self) is stored as \(R.itemType), not as \(itemType)")
        }
    }
}
