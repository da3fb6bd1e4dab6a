extension DataStoreReadWriteAccessor {
    /// Declares that entities of `type` refer, through the properties named `attributes` (as
    /// they are coded), to entities of `relatedType`: the relation
    /// ``ensureRelation(ofType:on:to:onDelete:name:)`` declares between their item types.
    ///
    /// ```swift
    /// let trackAlbum = try store.writeSync { accessor in
    ///     try accessor.ensureRelation(Track.self, on: ["albumId"], to: Album.self, onDelete: .cascade)
    /// }
    /// ```
    ///
    /// - Throws: as ``ensureRelation(ofType:on:to:onDelete:name:)``.
    @discardableResult
    public func ensureRelation<E: DataStoreEntity, R: DataStoreEntity>(
        _ type: E.Type, on attributes: [String], to relatedType: R.Type, onDelete: DataStoreRelation.DeleteRule,
        name: String? = nil
    ) throws -> DataStoreRelation {
        try ensureRelation(ofType: E.itemType, on: attributes, to: R.itemType, onDelete: onDelete, name: name)
    }
}
