import Persist

/// Typed reads decode entities straight from the stored items, and typed writes store each row's
/// item, without the accessor turning entities into items and back.
extension JSONFileTransaction: EntityRowWriting {
    public func forEachEntityRow(matching request: DataStoreRequest, _ body: (any EntityRowSource) throws -> Bool) throws {
        let source = JSONFileRowSource()
        try forEachItem(matching: request) { item in
            source.current = item
            fastPaths.entityRowsRead += 1
            return try body(source)
        }
    }

    public func withEntityRow<T>(ofType itemType: String, id: ItemID, _ body: (any EntityRowSource) throws -> T) throws -> T? {
        guard let item = items[ItemReference(itemType: itemType, id: id)] else { return nil }
        let source = JSONFileRowSource()
        source.current = item
        fastPaths.entityRowsRead += 1
        return try body(source)
    }

    public func entityRowSink(forType itemType: String) -> any EntityRowSink {
        JSONFileRowSink(transaction: self)
    }
}
