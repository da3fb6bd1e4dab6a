/// Stops a running ``Migration`` from another thread: the run throws `CancellationError` at its
/// next check (every few hundred items, and between phases), and its write block rolls back.
///
/// ```swift
/// let cancellation = MigrationCancellation()
/// signalSource.setEventHandler { cancellation.cancel() }      // SIGINT, a Cancel button…
/// do {
///     let report = try Migration(source: old, target: new).run(cancellation: cancellation)
/// } catch is CancellationError {
///     print("stopped; nothing was committed by the interrupted block")
/// }
/// ```
///
/// What is left in the target is what a failure leaves: nothing for an
/// ``MigrationOptions/atomic`` run, the batches committed before the check otherwise.
public final class MigrationCancellation: Sendable {
    private let cancelled = Locked(false)

    /// A cancellation that has not been requested yet.
    public init() {}

    /// Asks the migration to stop. Safe to call from any thread, any number of times.
    public func cancel() {
        cancelled.withLock { $0 = true }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.value }

    /// Throws `CancellationError` when cancelled.
    func check() throws {
        if isCancelled { throw CancellationError() }
    }
}
