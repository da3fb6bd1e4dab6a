/// A ``DataStore`` whose whole contract is provided by a ``TransactionRuntime`` driving a
/// ``DataStoreEngine``.
///
/// Conforming is all a wrapper has to do to get `read`, `writeSync`, `writeAsync`, `flush`, the
/// `async` variants, accessors, mutable items, typed entities and child stores:
///
/// ```swift
/// public final class MyStore: EngineBackedDataStore {
///     public let runtime: TransactionRuntime
///     public init(path: String) {
///         runtime = TransactionRuntime(engine: MyEngine(path: path), logger: Logger(label: "my-store"))
///     }
/// }
/// ```
public protocol EngineBackedDataStore: DataStore {
    /// The runtime every operation forwards to.
    var runtime: TransactionRuntime { get }
}

extension EngineBackedDataStore {
    public var location: String { runtime.engine.location }

    public func setup() throws { try runtime.setup() }

    public func tearDown() throws { try runtime.tearDown() }

    public func read<T>(_ block: (DataStoreReadAccessor) throws -> T) throws -> T {
        try runtime.read(block)
    }

    @discardableResult
    public func writeSync<T>(_ block: (DataStoreReadWriteAccessor) throws -> T) throws -> T {
        try runtime.writeSync(block)
    }

    public func writeAsync<T: Sendable>(
        _ block: @escaping @Sendable (DataStoreReadWriteAccessor) throws -> T,
        completion: (@Sendable (Result<T, any Error>) -> Void)?
    ) {
        runtime.writeAsync(block, completion: completion)
    }

    public func flush() throws { try runtime.flush() }

    public func read<T: Sendable>(_ block: @escaping @Sendable (DataStoreReadAccessor) throws -> T) async throws -> T {
        try await runtime.read(block)
    }

    @discardableResult
    public func write<T: Sendable>(_ block: @escaping @Sendable (DataStoreReadWriteAccessor) throws -> T) async throws -> T {
        try await runtime.write(block)
    }

    public func makeChildDataStore() throws -> any DataStore {
        try runtime.checkOpen()
        return ChildDataStore(parent: self, logger: runtime.logger)
    }

    public func merge(_ child: any DataStore, policy: MergePolicy) throws {
        try ChildMerge.merge(child, into: self, policy: policy)
    }
}
