extension DataStoreReadAccessor {
    /// Where the referring attributes of `relation` are held in its items: in the identifier, for
    /// the key columns the engine names (``StoreReader/keyAttributes(ofType:)``), or as attributes.
    func referringShape(of relation: DataStoreRelation) throws -> ReferringShape {
        let keyAttributes: [String]?
        if let cached = keyAttributeCache[relation.itemType] {
            keyAttributes = cached
        } else {
            keyAttributes = try context.locating { try reader.keyAttributes(ofType: relation.itemType) }
            keyAttributeCache[relation.itemType] = .some(keyAttributes)
        }
        return ReferringShape(relation, keyAttributes: keyAttributes)
    }

    /// Calls `body` with each item that refers to `id` through `relation`, in identifier order,
    /// until it returns `false`.
    func forEachReferrer(of id: ItemID, via relation: DataStoreRelation, _ body: (Item) throws -> Bool) throws {
        let shape = try referringShape(of: relation)
        guard let (filter, checksEach) = relation.referrerSelection(for: id, shape: shape) else { return }
        var request = DataStoreRequest(itemType: relation.itemType)
        request.filter = filter
        try context.locating {
            try reader.forEachItem(matching: request) { item in
                if checksEach && !relation.refers(item, to: id, shape: shape) { return true }
                return try body(item)
            }
        }
    }

    /// The items that refer to `id` through `relation`, in identifier order.
    func referrers(of id: ItemID, via relation: DataStoreRelation) throws -> [Item] {
        var found: [Item] = []
        try forEachReferrer(of: id, via: relation) { item in
            found.append(item)
            return true
        }
        return found
    }
}
