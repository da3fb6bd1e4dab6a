/// The index declarations of a store whose engine keeps none itself (``StoreReader/indexes(ofType:)``
/// returns `nil`): held by its ``WriteScheduler`` for the life of the store object, so an
/// application declares them again (``DataStoreReadWriteAccessor/ensureIndex(ofType:on:unique:)``
/// is idempotent) each time it makes the store.
final class IndexCatalog: Sendable {
    private let declared = Locked<[String: [DataStoreIndex]]>([:])

    /// The declarations for `itemType`, oldest first.
    func indexes(ofType itemType: String) -> [DataStoreIndex] {
        declared.withLock { $0[itemType] ?? [] }
    }

    /// Adds the declarations of a committed block.
    func add(_ indexes: [DataStoreIndex]) {
        guard !indexes.isEmpty else { return }
        declared.withLock { declared in
            for index in indexes { declared[index.itemType, default: []].append(index) }
        }
    }
}
