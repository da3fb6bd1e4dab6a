/// What ``DataStoreReadWriteAccessor/synchronize(_:)`` changed to make the store hold exactly the
/// given entities.
///
/// ```swift
/// let result = try store.writeSync { accessor in try accessor.synchronize(fromServer) }
/// print("added \(result.added.count), updated \(result.updated.count), removed \(result.removed.count)")
/// ```
public struct SynchronizeResult<Entity: DataStoreEntity>: Sendable {
    /// Entities that were not stored before, in the order given.
    public var added: [Entity]
    /// Entities that were stored with different values, in the order given.
    public var updated: [Entity]
    /// Identifiers of stored items that were not in the collection and were deleted, in ascending order.
    public var removed: [ItemID]
    /// How many entities were already stored exactly as given.
    public var unchanged: Int

    /// Whether the store already held exactly the collection.
    public var isEmpty: Bool { added.isEmpty && updated.isEmpty && removed.isEmpty }
}
