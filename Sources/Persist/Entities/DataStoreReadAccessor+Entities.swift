extension DataStoreReadAccessor {
    /// Every stored entity of a type, ordered by identifier.
    ///
    /// ```swift
    /// let restaurants = try store.read { accessor in try accessor.getAll(Restaurant.self) }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/typeMismatch`` when a stored item does not decode as `E`.
    public func getAll<E: DataStoreEntity>(_ type: E.Type) throws -> [E] {
        try getAll(type, forRequest: DataStoreRequest(itemType: type))
    }

    /// The entities a request selects, in the request's order.
    ///
    /// ```swift
    /// var request = DataStoreRequest(itemType: Restaurant.self)
    /// request.setSort(byKey: "rating", ascending: false)
    /// let best = try store.read { accessor in try accessor.getAll(Restaurant.self, forRequest: request) }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` when the request is for another item type.
    @inlinable
    public func getAll<E: DataStoreEntity>(_ type: E.Type, forRequest request: DataStoreRequest) throws -> [E] {
        // Only the collecting is inlined: appended in the caller, where `E` is known, the array
        // needs no metadata lookup and no copy per entity.
        var entities: [E] = []
        try forEachEntity(type, forRequest: request) { entities.append($0) }
        return entities
    }

    /// Hands each entity a request selects to `body`, in the request's order: the loop behind
    /// ``getAll(_:forRequest:)``.
    @usableFromInline
    func forEachEntity<E: DataStoreEntity>(
        _ type: E.Type, forRequest request: DataStoreRequest, _ body: (consuming E) -> Void
    ) throws {
        try checkActiveAndFlushPendingChanges()
        try context.locating {
            guard request.itemType == E.itemType else {
                throw DataStoreError.invalidArgument(
                    "the request is for \(request.itemType) but \(E.self) is stored as \(E.itemType)")
            }
        }
        let resolved = try prepared(request)
        var decoding = EntityRowDecoding(E.self)
        try entityRows.forEachEntityRow(matching: resolved) { source in
            body(try decoding.decode(E.self, from: source))
            return true
        }
    }

    /// The entity with identifier `id`, or `nil`.
    ///
    /// ```swift
    /// let pizza = try store.read { accessor in try accessor.getById(Restaurant.self, id: "r1") }
    /// ```
    public func getById<E: DataStoreEntity>(_ type: E.Type, id: E.ID) throws -> E? {
        try checkActiveAndFlushPendingChanges()
        let itemID = try context.locating {
            try NameRules.validateItemType(E.itemType)
            return try E.itemID(for: id)
        }
        var decoding = EntityRowDecoding(E.self)
        return try entityRows.withEntityRow(ofType: E.itemType, id: itemID) { source in
            try decoding.decode(E.self, from: source)
        }
    }

    /// The engine's row hook, or the general path through items.
    var entityRows: any EntityRowReading {
        reader.entityRows ?? GeneralEntityRows(reader: reader)
    }
}
