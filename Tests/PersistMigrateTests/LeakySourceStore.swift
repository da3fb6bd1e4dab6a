import Foundation
import Persist

/// A read-only source whose reader counts every item it holds but streams only those not
/// `hidden`: a store whose copy would miss rows without noticing (as a table its reader leaves out
/// would), for the verification that counts the source apart from what it reads.
final class LeakyEngine: DataStoreEngine, @unchecked Sendable {
    // @unchecked Sendable: both lists are set once, before the store is set up, and only read after.
    let location = "leaky-source"
    private let items: [Item]
    private let hidden: Set<ItemReference>

    init(items: [Item], hidden: Set<ItemReference>) {
        self.items = items
        self.hidden = hidden
    }

    func open() throws {}
    func close() throws {}

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        try body(LeakyReader(items: items, hidden: hidden))
    }

    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T {
        throw DataStoreError(.readOnly, "the leaky source is read-only", path: location)
    }
}

/// Counts every item; streams all but the hidden ones.
final class LeakyReader: StoreReader {
    let items: [Item]
    let hidden: Set<ItemReference>

    init(items: [Item], hidden: Set<ItemReference>) {
        self.items = items
        self.hidden = hidden
    }

    func item(ofType itemType: String, id: ItemID) throws -> Item? {
        items.first { $0.itemType == itemType && $0.id == id }
    }

    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {
        for item in items where item.itemType == request.itemType && !hidden.contains(item.reference) {
            guard try body(item) else { return }
        }
    }

    func countItems(matching request: DataStoreRequest) throws -> Int {
        items.filter { $0.itemType == request.itemType }.count
    }

    func itemTypes() throws -> [String] {
        Set(items.map(\.itemType)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}

/// The store over a ``LeakyEngine``.
final class LeakyStore: EngineBackedDataStore {
    let scheduler: WriteScheduler

    init(items: [Item], hidden: Set<ItemReference>) {
        scheduler = WriteScheduler(engine: LeakyEngine(items: items, hidden: hidden), logger: .init(label: "leaky-source"))
    }
}
