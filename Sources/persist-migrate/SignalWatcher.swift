import Dispatch
import Foundation
import Persist

/// Turns SIGINT and SIGTERM into a request to stop: the migration stops at its next check, rolls
/// back or discards what it was building, and the tool exits with 130 or 143.
final class SignalWatcher {
    let cancellation = MigrationCancellation()
    private let received = Locked<Int32?>(nil)
    /// The waits ``interruptible(_:abandoned:)`` has in progress, woken by a signal.
    private let waits = Locked<[ObjectIdentifier: @Sendable () -> Void]>([:])
    /// Kept alive as long as the watcher.
    private let sources: [any DispatchSourceSignal]

    init() {
        let queue = DispatchQueue(label: "persist-migrate.signals")
        var sources: [any DispatchSourceSignal] = []
        let cancellation = cancellation
        let received = received
        let waits = waits
        for signal in [SIGINT, SIGTERM] {
            // Ignored by the default handler, so that the dispatch source receives it instead.
            Foundation.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            source.setEventHandler {
                received.withLock { if $0 == nil { $0 = signal } }
                cancellation.cancel()
                for wake in waits.value.values { wake() }
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// The first signal received, if any.
    var signal: Int32? { received.value }

    /// Throws `CancellationError` once a signal has arrived.
    func check() throws {
        if cancellation.isCancelled { throw CancellationError() }
    }

    /// Runs a blocking call that cannot check for a signal itself (opening a PostgreSQL store waits
    /// for the server up to its connect timeout) and returns what it returns, unless SIGINT or
    /// SIGTERM arrives first: then it throws `CancellationError` at once, and what the call returns
    /// later is handed to `abandoned` (to close it).
    func interruptible<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value,
                                        abandoned: @escaping @Sendable (Value) -> Void) throws -> Value {
        let wait = InterruptibleWait<Value>()
        let key = ObjectIdentifier(wait)
        waits.withLock { $0[key] = { wait.interrupt() } }
        defer { waits.withLock { $0[key] = nil } }
        // A signal that came before the wait was listed has no one to wake: look first.
        try check()
        let cancellation = cancellation
        return try wait.run(body, interrupted: { cancellation.isCancelled }, abandoned: abandoned)
    }
}
