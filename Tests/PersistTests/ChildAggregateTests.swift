import Foundation
import Persist
import Testing

/// An engine holding fixed `Line` items that computes aggregates itself, as a database does, and
/// counts the items it hands out one by one.
private final class AggregatingEngine: DataStoreEngine {
    private final class Reader: StoreWriter {
        let engine: AggregatingEngine
        init(_ engine: AggregatingEngine) { self.engine = engine }

        func item(ofType itemType: String, id: ItemID) throws -> Item? {
            engine.items.first { $0.itemType == itemType && $0.id == id }
        }
        func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {
            var selected = engine.items.filter { $0.itemType == request.itemType && request.matches($0) }
            selected.sort(by: request.sortsBefore)
            for item in selected.dropFirst(request.offset).prefix(request.limit ?? Int.max) {
                engine.handedOut.withLock { $0 += 1 }
                guard try body(item) else { return }
            }
        }
        func countItems(matching request: DataStoreRequest) throws -> Int {
            engine.items.filter { $0.itemType == request.itemType && request.matches($0) }.count
        }
        func itemTypes() throws -> [String] { ["Line"] }
        /// The sum of every `price`, without handing out an item (the tests ask only for that).
        func aggregate(_ function: AggregateFunction, of attribute: String, matching request: DataStoreRequest) throws -> Value? {
            engine.aggregates.withLock { $0 += 1 }
            return .int(engine.items.compactMap { $0["price"]?.intValue }.reduce(0, +))
        }
        func insert(_ item: Item) throws {}
        func save(_ item: Item) throws {}
        func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool { false }
        func deleteAllItems(ofType itemType: String) throws -> Int { 0 }
    }

    let location = ":aggregating:"
    let items = (1...100).map { Item(itemType: "Line", id: .int(Int64($0)), attributes: ["price": .int(Int64($0))]) }
    /// Items handed out by `forEachItem`.
    let handedOut = Locked(0)
    /// Aggregates the engine computed itself.
    let aggregates = Locked(0)
    func open() throws {}
    func close() throws {}
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try body(Reader(self)) }
    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T { try body(Reader(self)).value }
}

@Suite("Aggregates through a child store")
struct ChildAggregateTests {
    @Test("a child asks its parent for the aggregate of a type it has not changed, instead of reading every item")
    func unchangedTypeAsksParent() throws {
        let parent = EngineStore(AggregatingEngine())
        try parent.setup()
        defer { try? parent.tearDown() }
        let child = try parent.makeChildDataStore()
        try child.setup()
        try child.writeSync { try $0.insert(Item(itemType: "Note", id: "n")) }
        let request = DataStoreRequest(itemType: "Line")
        #expect(try child.read { try $0.sum(of: "price", forRequest: request) } == .int(5050))
        #expect(parent.engine.aggregates.value == 1)
        #expect(parent.engine.handedOut.value == 0)

        // Once the child changes the type, it folds the overlaid items with its own change.
        try child.writeSync { try $0.save(Item(itemType: "Line", id: 1, attributes: ["price": 1001])) }
        #expect(try child.read { try $0.sum(of: "price", forRequest: request) } == .int(6050))
        #expect(parent.engine.aggregates.value == 1)
    }
}
