/// The read operations a store's engine provides inside one read (or write) transaction.
///
/// This is the interface for people writing a wrapper of their own: implement ``StoreReader``,
/// ``StoreWriter`` and ``DataStoreEngine``, and ``EngineBackedDataStore`` turns them into a full
/// ``DataStore`` with accessors, mutable items, typed entities, write queues and lifecycle checks.
/// Requests reaching an engine have already passed ``DataStoreRequest/validate()``.
///
/// ```swift
/// final class MyReader: StoreReader {
///     func item(ofType itemType: String, id: ItemID) throws -> Item? { … }
///     func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws { … }
///     func countItems(matching request: DataStoreRequest) throws -> Int { … }
///     func itemTypes() throws -> [String] { … }
/// }
/// ```
public protocol StoreReader: AnyObject {
    /// The item with this type and identifier, or `nil`.
    func item(ofType itemType: String, id: ItemID) throws -> Item?

    /// Calls `body` with each item the request selects, in the request's order, honouring offset
    /// and limit. Stops early when `body` returns `false`.
    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws

    /// The number of items `forEachItem(matching:_:)` would produce.
    func countItems(matching request: DataStoreRequest) throws -> Int

    /// The names of the item types that hold at least one item, in ascending byte order.
    func itemTypes() throws -> [String]
}

extension StoreReader {
    /// Every item the request selects, in order.
    public func items(matching request: DataStoreRequest) throws -> [Item] {
        var items: [Item] = []
        try forEachItem(matching: request) { item in
            items.append(item)
            return true
        }
        return items
    }
}
