extension DataStoreReadWriteAccessor {
    /// Stores a new entity.
    ///
    /// ```swift
    /// try store.writeSync { accessor in try accessor.insert(Restaurant(id: "r1", name: "Pizza Place", rating: 4)) }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/alreadyExists`` when an entity with the same id is stored.
    public func insert<E: DataStoreEntity>(_ entity: E) throws {
        try insert(entity.makeItem())
    }

    /// Replaces a stored entity.
    ///
    /// - Throws: ``DataStoreError/Code/notFound`` when no entity with this id is stored.
    public func update<E: DataStoreEntity>(_ entity: E) throws {
        let item = try entity.makeItem()
        guard try self.item(ofType: item.itemType, id: item.id) != nil else {
            throw DataStoreError(.notFound, "cannot update \(item.reference): it is not stored", items: [item.reference])
        }
        try save(item)
    }

    /// Stores an entity, replacing any stored entity with the same id.
    public func save<E: DataStoreEntity>(_ entity: E) throws {
        try save(entity.makeItem())
    }

    /// Deletes the entity with identifier `id`; `true` if it was stored.
    @discardableResult
    public func deleteById<E: DataStoreEntity>(_ type: E.Type, id: E.ID) throws -> Bool {
        try deleteItem(ofType: E.itemType, id: E.itemID(for: id))
    }

    /// Deletes every entity of a type; returns how many there were.
    @discardableResult
    public func clean<E: DataStoreEntity>(_ type: E.Type) throws -> Int {
        try deleteAllItems(ofType: E.itemType)
    }

    /// Makes the store hold exactly `entities` of their type: adds the missing ones, updates those
    /// that differ, deletes stored ones not in the collection (including items that no longer
    /// decode as `E`), and reports what it did.
    ///
    /// ```swift
    /// let result = try store.writeSync { accessor in
    ///     try accessor.synchronize([Restaurant(id: "r1", name: "Pizza Place", rating: 5)])
    /// }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` when two entities share an id.
    @discardableResult
    public func synchronize<E: DataStoreEntity, S: Sequence<E>>(_ entities: S) throws -> SynchronizeResult<E> {
        var wanted: [ItemID: Int] = [:]
        var pairs: [(entity: E, item: Item)] = []
        for entity in entities {
            let item = try entity.makeItem()
            if wanted.updateValue(pairs.count, forKey: item.id) != nil {
                throw DataStoreError.invalidArgument("the collection holds \(item.reference) more than once")
            }
            pairs.append((entity, item))
        }
        var stored: [Bool] = Array(repeating: false, count: pairs.count)
        var changed: [Bool] = Array(repeating: false, count: pairs.count)
        var removed: [ItemID] = []
        try forEachItem(forRequest: DataStoreRequest(itemType: E.itemType)) { item in
            if let index = wanted[item.id] {
                stored[index] = true
                changed[index] = pairs[index].item != item
            } else {
                removed.append(item.id)
            }
        }
        var result = SynchronizeResult<E>(added: [], updated: [], removed: removed, unchanged: 0)
        for id in removed {
            try deleteItem(ofType: E.itemType, id: id)
        }
        for (index, pair) in pairs.enumerated() {
            if !stored[index] {
                try insert(pair.item)
                result.added.append(pair.entity)
            } else if changed[index] {
                try save(pair.item)
                result.updated.append(pair.entity)
            } else {
                result.unchanged += 1
            }
        }
        return result
    }
}
