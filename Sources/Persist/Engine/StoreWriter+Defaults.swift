/// The default implementations of the optional ``StoreWriter`` operations, built on the reads and
/// on `deleteItem` and `save`. They are what every store does; an engine's override must give
/// exactly the same results.
extension StoreWriter {
    /// Collects the identifiers the request selects, then deletes each.
    ///
    /// ```swift
    /// var request = DataStoreRequest(itemType: "Todo")
    /// request.filter = .attribute("done") == true
    /// let removed = try writer.deleteItems(matching: request)
    /// ```
    public func deleteItems(matching request: DataStoreRequest) throws -> Int {
        var ids: [ItemID] = []
        try forEachItem(matching: request) { item in
            ids.append(item.id)
            return true
        }
        for id in ids { _ = try deleteItem(ofType: request.itemType, id: id) }
        return ids.count
    }

    /// Reads the selected items, then saves each with `values` applied.
    ///
    /// ```swift
    /// let changed = try writer.updateItems(matching: DataStoreRequest(itemType: "Todo"), setting: ["done": true])
    /// ```
    public func updateItems(matching request: DataStoreRequest, setting values: [String: Value]) throws -> Int {
        let selected = try items(matching: request)
        for item in selected { try save(item.setting(values)) }
        return selected.count
    }

    /// One above ``StoreReader/integerIDFloor(ofType:)``, or 1.
    ///
    /// ```swift
    /// let id = try writer.nextIntegerID(ofType: "Todo")
    /// ```
    public func nextIntegerID(ofType itemType: String) throws -> Int64 {
        try IntegerIDs.after(integerIDFloor(ofType: itemType), itemType: itemType)
    }

    /// `nil`: the engine keeps no index catalog, so the store's scheduler keeps the declaration.
    public func ensureIndex(_ index: DataStoreIndex) throws -> Bool? {
        nil
    }

    /// `nil`: the engine keeps no relation catalog, so the store's scheduler keeps the declaration.
    public func ensureRelation(_ relation: DataStoreRelation) throws -> Bool? {
        nil
    }

    /// `false`: the accessor cascades and nullifies before a deletion.
    public func appliesDeleteRule(of relation: DataStoreRelation) -> Bool { false }

    /// `false`: the accessor checks writes against unique indexes before passing them on.
    public var enforcesUniqueIndexes: Bool { false }

    /// `false`: the accessor asks for a type's next identifier once per block and counts up.
    public func takesEachIntegerIDFromSequence(ofType itemType: String) -> Bool { false }

    /// Checks nothing: every `Int64` fits.
    public func checkGeneratedIntegerID(_ id: Int64, ofType itemType: String) throws {}

    /// `nil`: migrations insert item by item.
    public var bulkLoader: (any BulkLoadWriter)? { nil }

    /// `nil`: the store makes its tables from the items.
    public var schemaRecreating: (any SchemaRecreatingWriter)? { nil }

    /// `nil`: typed writes go through `insert(_:)` and `save(_:)` with items.
    public var entityRowWriting: (any EntityRowWriting)? { nil }
}

extension Item {
    /// The item with `values` set (`nil` or `.null` removes an attribute), every other attribute kept.
    ///
    /// ```swift
    /// let done = todo.setting(["done": true, "note": .null])
    /// ```
    public func setting(_ values: [String: Value]) -> Item {
        var changed = self
        for (name, value) in values { changed[name] = value }
        return changed
    }
}
