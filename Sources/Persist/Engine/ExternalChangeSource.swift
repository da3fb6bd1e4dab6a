/// An engine that can tell when another process (or any connection other than its own) committed
/// a change, so that live queries (``DataStore/observe(_:)``) see writes made outside this store
/// object too.
///
/// While a store has live queries, its ``WriteScheduler`` calls these methods on its write queue,
/// serialized with every write block: ``beginWatchingExternalChanges()`` once, then
/// ``pollExternalChanges()`` every ``externalChangePollInterval``, then
/// ``endWatchingExternalChanges()`` when the last live query ends. A poll that throws ends every
/// live query of the store with that error (a vanished file, a lost server). The store's own
/// commits are reported by the scheduler itself; a poll need not (but may) report them too.
///
/// A file engine may compare a change counter the file keeps; a server may subscribe to a
/// notification channel in ``beginWatchingExternalChanges()`` and, in ``pollExternalChanges()``,
/// consume input without blocking and report whether a notification arrived.
///
/// ```swift
/// extension MyEngine: ExternalChangeSource {
///     var externalChangePollInterval: Duration { .milliseconds(50) }
///     func beginWatchingExternalChanges() throws { baseline = try readChangeCounter() }
///     func pollExternalChanges() throws -> Bool {
///         let now = try readChangeCounter()
///         defer { baseline = now }
///         return now != baseline
///     }
///     func endWatchingExternalChanges() {}
/// }
/// ```
public protocol ExternalChangeSource: DataStoreEngine {
    /// How often the scheduler polls while live queries exist: the bound on how late another
    /// process's commit is seen (plus the time to finish a write block running then, and to run
    /// the query again).
    ///
    /// ```swift
    /// var externalChangePollInterval: Duration { .milliseconds(50) }
    /// ```
    var externalChangePollInterval: Duration { get }

    /// Starts watching: records what counts as "no change yet" (and, for a push-based engine,
    /// subscribes). Called on the write queue while the store is open.
    ///
    /// ```swift
    /// func beginWatchingExternalChanges() throws { baseline = try readChangeCounter() }
    /// ```
    func beginWatchingExternalChanges() throws

    /// Whether a change was committed elsewhere since the last call (or since
    /// ``beginWatchingExternalChanges()``). Called on the write queue while the store is open.
    ///
    /// - Throws: a ``DataStoreError`` when the store can no longer be watched (its file vanished);
    ///   every live query of the store ends with it.
    ///
    /// ```swift
    /// func pollExternalChanges() throws -> Bool { try readChangeCounter() != baseline }
    /// ```
    func pollExternalChanges() throws -> Bool

    /// Stops watching. Called on the write queue, possibly after the store was closed.
    ///
    /// ```swift
    /// func endWatchingExternalChanges() { baseline = nil }
    /// ```
    func endWatchingExternalChanges()
}

extension ExternalChangeSource {
    /// The engine itself: conforming to ``ExternalChangeSource`` is opting in.
    public var externalChanges: (any ExternalChangeSource)? { self }
}
