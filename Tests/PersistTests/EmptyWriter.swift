import Persist

/// A transaction of a store that holds nothing and keeps nothing, for engines of the tests' own
/// whose items do not matter. It conforms to no capability.
///
/// ```swift
/// func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try body(EmptyWriter()) }
/// ```
final class EmptyWriter: StoreWriter {
    func item(ofType itemType: String, id: ItemID) throws -> Item? { nil }
    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {}
    func countItems(matching request: DataStoreRequest) throws -> Int { 0 }
    func itemTypes() throws -> [String] { [] }
    func insert(_ item: Item) throws {}
    func save(_ item: Item) throws {}
    func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool { false }
    func deleteAllItems(ofType itemType: String) throws -> Int { 0 }
}
