import Foundation
import Persist

/// The engine of `JSONFileStore`: every item in memory, the whole file rewritten at each commit.
///
/// A wrapper implements three things: a reader (``StoreReader``), a writer (``StoreWriter``) and
/// the engine that hands them out (``DataStoreEngine``). Requests are answered with
/// `DataStoreRequest.apply(to:)`, so this store gives exactly the shared semantics.
final class JSONFileEngine: DataStoreEngine {
    let location: String
    /// Every item by reference; replaced as a whole when a write commits.
    private let committed = JSONFileState()
    /// How often the blocks took each fast path, added up as each block ends.
    let fastPaths = JSONFileFastPathCounter()

    init(path: String) {
        location = path
    }

    func open() throws {
        guard FileManager.default.fileExists(atPath: location) else {
            committed.replace(with: [:])
            return
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: location))
        } catch {
            throw DataStoreError(.io, "cannot read \(location): \(error.localizedDescription)", path: location)
        }
        let items: [Item]
        do {
            items = try JSONFileFormat.decode(data)
        } catch {
            throw DataStoreError(.corrupt, "\(location) is not a JSON item file: \(error)", path: location)
        }
        // A file written by hand or by another program may hold one item twice: refuse it, not trap.
        var byReference: [ItemReference: Item] = [:]
        for item in items where byReference.updateValue(item, forKey: item.reference) != nil {
            throw DataStoreError(.corrupt, "\(location) holds \(item.reference) twice", path: location,
                                 items: [item.reference])
        }
        committed.replace(with: byReference)
    }

    func close() throws {}

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        let transaction = JSONFileTransaction(items: committed.snapshot)
        defer { fastPaths.add(transaction.fastPaths) }
        return try body(transaction)
    }

    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T {
        try run(JSONFileTransaction(items: committed.snapshot), body)
    }

    /// Runs a write block on `transaction`, a working copy of the items, and writes the file when
    /// the block commits.
    private func run<T>(
        _ transaction: JSONFileTransaction, _ body: (JSONFileTransaction) throws -> (value: T, commit: Bool)
    ) throws -> T {
        defer { fastPaths.add(transaction.fastPaths) }
        let (value, commit) = try body(transaction)
        guard commit else { return value }
        // Write a new file beside the old one and rename it over: the file is always whole.
        let data = try JSONFileFormat.encode(transaction.items.values.sorted { ($0.itemType, $0.id) < ($1.itemType, $1.id) })
        let temporary = location + ".new"
        do {
            try data.write(to: URL(fileURLWithPath: temporary))
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw DataStoreError(.io, "cannot write \(temporary): \(error.localizedDescription)", path: location)
        }
        guard rename(temporary, location) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw DataStoreError(.io, "cannot move \(temporary) over \(location): \(reason)", path: location)
        }
        committed.replace(with: transaction.items)
        return value
    }
}

/// Migrations write into the store in a transaction whose writer loads in bulk: the same working
/// copy as any write, counted apart.
extension JSONFileEngine: BulkLoadingEngine {
    func bulkWrite<T>(_ body: (any BulkLoadWriter) throws -> (value: T, commit: Bool)) throws -> T {
        let transaction = JSONFileTransaction(items: committed.snapshot)
        transaction.fastPaths.bulkWrites += 1
        return try run(transaction, body)
    }
}

/// The committed items, guarded by a lock: reads take snapshots while a write commits.
final class JSONFileState: @unchecked Sendable {
    // @unchecked Sendable: `items` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var items: [ItemReference: Item] = [:]

    var snapshot: [ItemReference: Item] { lock.withLock { items } }

    func replace(with items: [ItemReference: Item]) {
        lock.withLock { self.items = items }
    }
}
