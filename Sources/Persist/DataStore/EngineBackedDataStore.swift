/// A ``DataStore`` whose whole contract is provided by a ``WriteScheduler`` driving a
/// ``DataStoreEngine``: the public extension point for wrappers.
///
/// Conforming is all a wrapper has to do to get `read`, `writeSync`, `writeAsync`, `flush`, the
/// `async` variants, accessors, mutable items, typed entities and child stores:
///
/// ```swift
/// public final class MyStore: EngineBackedDataStore {
///     public let scheduler: WriteScheduler
///     public init(path: String) {
///         scheduler = WriteScheduler(engine: MyEngine(path: path), logger: Logger(label: "my-store"))
///     }
/// }
/// ```
///
/// The scheduler never hands out its engine: every write goes through its queue and checks.
public protocol EngineBackedDataStore: DataStore {
    /// The scheduler every operation forwards to.
    var scheduler: WriteScheduler { get }
}

extension EngineBackedDataStore {
    /// The store's ``scheduler``.
    public var writeScheduler: WriteScheduler? { scheduler }

    /// Where the data lives: the engine's location.
    public var location: String { scheduler.engine.location }

    /// Opens the store (see ``DataStore/setup()``).
    public func setup() throws { try scheduler.setup() }

    /// Waits for queued writes, then closes the store (see ``DataStore/tearDown()``).
    public func tearDown() throws { try scheduler.tearDown() }

    /// Runs a read block on one consistent committed state.
    public func read<T>(_ block: (DataStoreReadAccessor) throws -> T) throws -> T {
        try scheduler.read(block)
    }

    /// Runs an atomic write block and returns once it is durable.
    @discardableResult
    public func writeSync<T>(_ block: (DataStoreReadWriteAccessor) throws -> T) throws -> T {
        try scheduler.writeSync(block)
    }

    /// Queues a write block; `completion` receives its result.
    public func writeAsync<T: Sendable>(
        _ block: @escaping @Sendable (DataStoreReadWriteAccessor) throws -> T,
        completion: (@Sendable (Result<T, any Error>) -> Void)?
    ) {
        scheduler.writeAsync(block, completion: completion)
    }

    /// Waits for every queued write and its completion (see ``DataStore/flush()``).
    public func flush() throws { try scheduler.flush() }

    /// Runs a read block off the calling task's thread.
    public func read<T: Sendable>(_ block: @escaping @Sendable (DataStoreReadAccessor) throws -> T) async throws -> T {
        try await scheduler.read(block)
    }

    /// Queues a write block and suspends until it has committed or rolled back.
    @discardableResult
    public func write<T: Sendable>(_ block: @escaping @Sendable (DataStoreReadWriteAccessor) throws -> T) async throws -> T {
        try await scheduler.write(block)
    }

    /// Makes a ``ChildDataStore`` of this store (see ``DataStore/makeChildDataStore()``).
    public func makeChildDataStore() throws -> ChildDataStore {
        try scheduler.checkOpen()
        return ChildDataStore(parent: self, logger: scheduler.logger)
    }

    /// Merges a child of this store in one atomic write (see ``DataStore/merge(_:policy:)``).
    public func merge(_ child: any DataStore, policy: MergePolicy) throws {
        try ChildMerge.merge(child, into: self, policy: policy)
    }
}
