/// A storage engine: what a wrapper implements so that ``EngineBackedDataStore`` can give it the
/// whole ``DataStore`` contract.
///
/// The scheduler calls ``write(_:)`` from one serial queue only, so an engine sees at most one write
/// at a time; ``read(_:)`` may be called from many threads at once, also while a write runs. Both
/// run their `body` exactly once, on the thread that called them: the store recognises a block
/// started inside another block by its thread, and refuses it (a `writeSync` inside a read would
/// otherwise wait for itself).
///
/// Throw ``DataStoreError``s with the engine's code and message and ``location``: what the reader
/// and writer throw reaches the caller's block, whose errors the store rethrows unchanged. An error
/// of another type from `open`, `close`, or `read` and `write` outside `body` (starting or
/// committing the transaction) becomes ``DataStoreError/Code/io`` naming the store (<doc:Contract>).
///
/// ```swift
/// final class MyEngine: DataStoreEngine {
///     let location = "/tmp/my.store"
///     func open() throws { … }
///     func close() throws { … }
///     func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { … }
///     func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T { … }
/// }
/// ```
public protocol DataStoreEngine: AnyObject, Sendable {
    /// Where the data lives (a file path, or a description such as `":memory:"`), for messages.
    var location: String { get }

    /// Opens files and connections. Called by `setup()`, and again after a `tearDown()`.
    func open() throws

    /// Closes files and connections without deleting anything.
    func close() throws

    /// Runs `body` against one consistent committed state.
    ///
    /// The state must not change while `body` runs, whatever writes commit meanwhile.
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T

    /// Runs `body` in a write transaction, then commits it durably when `body` returns
    /// `commit: true`, or rolls it back when it returns `commit: false` or throws.
    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T

    /// Whether `error` passes by itself, so that trying again later may succeed: a server with no
    /// connection slot free, or one that is restarting. A live query whose refresh meets such an
    /// error (or a lock, which every engine's live queries wait out) runs again a poll interval
    /// later instead of ending.
    ///
    /// The default is `false`.
    ///
    /// ```swift
    /// func isTransient(_ error: DataStoreError) -> Bool { error.engineMessage?.contains("restarting") == true }
    /// ```
    func isTransient(_ error: DataStoreError) -> Bool

    /// The engine's write transaction for loading many new items at once, which ``Migration``
    /// writes into the store in: the engine itself when it conforms to ``BulkLoadingEngine``,
    /// `nil` otherwise (the default). Conforming is opting in; a wrapper does not write this member.
    ///
    /// ```swift
    /// extension MyEngine: BulkLoadingEngine {
    ///     func bulkWrite<T>(_ body: (any BulkLoadWriter) throws -> (value: T, commit: Bool)) throws -> T { … }
    /// }
    /// ```
    var bulkLoading: (any BulkLoadingEngine)? { get }

    /// What tells live queries of commits made outside this store object: the engine itself when
    /// it conforms to ``ExternalChangeSource``, `nil` otherwise (the default), when live queries see
    /// only the commits made through the store. Conforming is opting in; a wrapper does not write
    /// this member.
    ///
    /// ```swift
    /// extension MyEngine: ExternalChangeSource {
    ///     var externalChangePollInterval: Duration { .milliseconds(50) }
    ///     func beginWatchingExternalChanges() throws { … }
    ///     func pollExternalChanges() throws -> Bool { … }
    ///     func endWatchingExternalChanges() {}
    /// }
    /// ```
    var externalChanges: (any ExternalChangeSource)? { get }
}

/// The defaults of the capabilities an engine may offer (<doc:EngineCapabilities>): none.
extension DataStoreEngine {
    /// `false`: only a lock passes by itself.
    public func isTransient(_ error: DataStoreError) -> Bool { false }

    /// `nil`: migrations write into the store in its ordinary write transactions.
    public var bulkLoading: (any BulkLoadingEngine)? { nil }

    /// `nil`: live queries see the commits made through the store object.
    public var externalChanges: (any ExternalChangeSource)? { nil }
}
