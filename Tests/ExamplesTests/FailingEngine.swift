import Foundation
import JSONFileStore
import Persist

/// A failure of a third-party engine's own kind, not a ``DataStoreError``.
struct DiskTrouble: Error, CustomStringConvertible {
    var description: String { "the disk said no" }
}

/// A third-party engine written against the public API only, keeping items in memory (in the
/// JSONFileStore example's transactions), that fails where it is told to with an error of its own type.
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
        return try body(JSONFileTransaction(items: lock.withLock { items }))
    }

    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T {
        let transaction = JSONFileTransaction(items: lock.withLock { items })
        let (value, commit) = try body(transaction)
        guard commit else { return value }
        try take(\.commit)
        lock.withLock { items = transaction.items }
        return value
    }
}

/// The store over a ``FailingEngine``.
final class FailingStore: EngineBackedDataStore {
    let scheduler: WriteScheduler

    init(engine: FailingEngine) {
        scheduler = WriteScheduler(engine: engine, logger: .init(label: "failing-store"))
    }
}
