internal import HashTreeCollections

/// The engine of ``InMemoryDataStore``: persistent hash trees, so that a snapshot is a constant-time
/// copy and a write block shares everything it does not change.
final class InMemoryEngine: DataStoreEngine {
    typealias Table = TreeDictionary<ItemID, Item>
    typealias Tables = TreeDictionary<String, Table>

    let location = ":memory:"
    private let committed = Locked(Tables())

    func open() throws {}
    func close() throws {}

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        try body(InMemoryTransaction(tables: committed.withLock { $0 }))
    }

    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T {
        let transaction = InMemoryTransaction(tables: committed.withLock { $0 })
        let (value, commit) = try body(transaction)
        if commit {
            let tables = transaction.tables
            committed.withLock { $0 = tables }
        }
        return value
    }
}
