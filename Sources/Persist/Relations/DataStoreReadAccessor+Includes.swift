extension DataStoreReadAccessor {
    /// The items the request selects, with the related items of `includes`: one query for the
    /// results, then one for each include (a query reads the related items of up to 5,000
    /// results), never one per result.
    ///
    /// ```swift
    /// let result = try store.read { accessor in
    ///     try accessor.items(forRequest: DataStoreRequest(itemType: "Order"), including: [.referring(via: lineOrder)])
    /// }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for an invalid request, or an include whose
    ///   relation does not start (``DataStoreInclude/related(via:)``) or end
    ///   (``DataStoreInclude/referring(via:)``) at the request's item type.
    public func items(forRequest request: DataStoreRequest, including includes: [DataStoreInclude]) throws -> IncludedItems {
        try checkActiveAndFlushPendingChanges()
        for include in includes { try context.locating { try Self.check(include, for: request.itemType) } }
        let items = try reader.items(matching: prepared(request))
        var related: [DataStoreRelation: [ItemID: Item]] = [:]
        var referring: [DataStoreRelation: [ItemID: [Item]]] = [:]
        var shapes: [DataStoreRelation: ReferringShape] = [:]
        for include in includes {
            switch include {
            case .related(let relation):
                shapes[relation] = try referringShape(of: relation)
                related[relation] = try context.locating { try relatedItems(of: items, via: relation) }
            case .referring(let relation):
                referring[relation] = try context.locating { try referringItems(to: items, via: relation) }
            }
        }
        return IncludedItems(items: items, related: related, referring: referring, shapes: shapes)
    }

    /// How many results one query of an include reads the related items of: few enough
    /// identifiers for one SQL statement's parameters on every engine.
    static let includeBatch = 5_000

    private static func check(_ include: DataStoreInclude, for itemType: String) throws {
        switch include {
        case .related(let relation) where relation.itemType != itemType:
            throw DataStoreError.invalidArgument(
                "the include \(include) reads the items that \(relation.itemType) refers to, but the request is for \(itemType)")
        case .referring(let relation) where relation.relatedType != itemType:
            throw DataStoreError.invalidArgument(
                "the include \(include) reads the items that refer to \(relation.relatedType), but the request is for \(itemType)")
        default:
            return
        }
    }

    private func relatedItems(of items: [Item], via relation: DataStoreRelation) throws -> [ItemID: Item] {
        let shape = try referringShape(of: relation)
        var ids: [ItemID] = []
        var seen: Set<ItemID> = []
        for item in items {
            if case .id(let id) = relation.referredID(in: item, shape: shape), seen.insert(id).inserted { ids.append(id) }
        }
        var found: [ItemID: Item] = [:]
        var start = 0
        while start < ids.count {
            let end = min(start + Self.includeBatch, ids.count)
            for item in try reader.items(ofType: relation.relatedType, ids: Array(ids[start..<end])) { found[item.id] = item }
            start = end
        }
        return found
    }

    private func referringItems(to items: [Item], via relation: DataStoreRelation) throws -> [ItemID: [Item]] {
        let ids = items.map(\.id).filter { $0.components.count == relation.attributes.count }
        var grouped: [ItemID: [Item]] = [:]
        let shape = try referringShape(of: relation)
        if shape.usesKey {
            // Held in key columns, which no filter names: one pass over the referring type.
            let wanted = Set(ids)
            try reader.forEachItem(matching: DataStoreRequest(itemType: relation.itemType)) { item in
                if case .id(let id) = relation.referredID(in: item, shape: shape), wanted.contains(id) {
                    grouped[id, default: []].append(item)
                }
                return true
            }
            return grouped
        }
        var start = 0
        while start < ids.count {
            let end = min(start + Self.includeBatch, ids.count)
            var request = DataStoreRequest(itemType: relation.itemType)
            request.filter = relation.referrersFilter(for: Array(ids[start..<end]))
            try reader.forEachItem(matching: request) { item in
                if case .id(let id) = relation.referredID(in: item) { grouped[id, default: []].append(item) }
                return true
            }
            start = end
        }
        return grouped
    }
}

extension DataStore {
    /// A live query of `request` with the related items of `includes`
    /// (see ``DataStoreReadAccessor/items(forRequest:including:)``): the current result at once,
    /// then a fresh one after each commit that changes the results or their related items.
    ///
    /// ```swift
    /// for try await result in store.observe(DataStoreRequest(itemType: "Order"), including: [.referring(via: lineOrder)]) {
    ///     print(result.items.count, "orders")
    /// }
    /// ```
    public func observe(_ request: DataStoreRequest, including includes: [DataStoreInclude])
        -> AsyncThrowingStream<IncludedItems, any Error> {
        guard let scheduler = writeScheduler else {
            let location = self.location
            return AsyncThrowingStream { continuation in
                do {
                    continuation.yield(try read { accessor in try accessor.items(forRequest: request, including: includes) })
                    continuation.finish(throwing: DataStoreError(
                        .unsupported, "\(location) is not built on a WriteScheduler, which reports commits; "
                            + "it cannot be observed beyond its current result", path: location))
                } catch {
                    continuation.finish(throwing: error)
                }
            }
        }
        return scheduler.observe(request, fetch: { accessor in try accessor.items(forRequest: request, including: includes) },
                                 transform: { $0 })
    }
}
