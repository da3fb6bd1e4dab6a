/// The relation declarations of a store whose engine keeps none itself (``StoreReader/relations()``
/// returns `nil`): held by its ``WriteScheduler`` for the life of the store object, so an
/// application declares them again each time it makes the store
/// (``DataStoreReadWriteAccessor/ensureRelation(ofType:on:to:onDelete:name:)`` is idempotent).
final class RelationCatalog: Sendable {
    private let declared = Locked<[DataStoreRelation]>([])

    /// Every declaration, oldest first.
    var relations: [DataStoreRelation] { declared.value }

    /// Adds the declarations of a committed block.
    func add(_ relations: [DataStoreRelation]) {
        guard !relations.isEmpty else { return }
        declared.withLock { $0.append(contentsOf: relations) }
    }
}
