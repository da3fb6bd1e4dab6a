import Foundation
import Persist

/// A failure of a third-party engine's own kind, not a ``DataStoreError``.
struct DiskTrouble: Error, CustomStringConvertible {
    var description: String { "the disk said no" }
}

/// A third-party engine written against the public API only, keeping items in memory, that fails
/// where it is told to with an error of its own type.
final class FailingEngine: DataStoreEngine, @unchecked Sendable {
    // @unchecked Sendable: `items` and the switches are read and changed only while `lock` is held.
    let location = "failing-engine"
    private let lock = NSLock()
    private var items: [ItemReference: Item] = [:]
    private var failures: (open: Bool, commit: Bool, read: Bool) = (false, false, false)

    func failNextOpen() { lock.withLock { failures.open = true } }
    func failNextCommit() { lock.withLock { failures.commit = true } }
    func failNextRead() { lock.withLock { failures.read = true } }

    private func take(_ failure: WritableKeyPath<(open: Bool, commit: Bool, read: Bool), Bool>) throws {
        try lock.withLock {
            guard failures[keyPath: failure] else { return }
            failures[keyPath: failure] = false
            throw DiskTrouble()
        }
    }

    func open() throws { try take(\.open) }
    func close() throws {}

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        try take(\.read)
        return try body(MemoryTransaction(items: lock.withLock { items }))
    }

    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T {
        let transaction = MemoryTransaction(items: lock.withLock { items })
        let (value, commit) = try body(transaction)
        guard commit else { return value }
        try take(\.commit)
        lock.withLock { items = transaction.items }
        return value
    }
}

/// A snapshot, or a working copy for a write.
final class MemoryTransaction: StoreWriter {
    private(set) var items: [ItemReference: Item]

    init(items: [ItemReference: Item]) { self.items = items }

    func item(ofType itemType: String, id: ItemID) throws -> Item? { items[ItemReference(itemType: itemType, id: id)] }
    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {
        for item in request.apply(to: items.values.filter { $0.itemType == request.itemType }) where try !body(item) { return }
    }
    func countItems(matching request: DataStoreRequest) throws -> Int {
        request.apply(to: items.values.filter { $0.itemType == request.itemType }).count
    }
    func itemTypes() throws -> [String] {
        Set(items.keys.map(\.itemType)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
    func insert(_ item: Item) throws {
        guard items[item.reference] == nil else {
            throw DataStoreError(.alreadyExists, "\(item.reference) already exists", items: [item.reference])
        }
        items[item.reference] = item
    }
    func save(_ item: Item) throws { items[item.reference] = item }
    func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool {
        items.removeValue(forKey: ItemReference(itemType: itemType, id: id)) != nil
    }
    func deleteAllItems(ofType itemType: String) throws -> Int {
        let doomed = items.keys.filter { $0.itemType == itemType }
        for reference in doomed { items[reference] = nil }
        return doomed.count
    }
}

/// The store over a ``FailingEngine``.
final class FailingStore: EngineBackedDataStore {
    let scheduler: WriteScheduler

    init(engine: FailingEngine) {
        scheduler = WriteScheduler(engine: engine, logger: .init(label: "failing-store"))
    }
}
