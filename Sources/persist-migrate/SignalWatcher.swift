import Dispatch
import Foundation
import Persist

/// Turns SIGINT and SIGTERM into a request to stop: the migration stops at its next check, rolls
/// back or discards what it was building, and the tool exits with 130 or 143.
final class SignalWatcher {
    let cancellation = MigrationCancellation()
    private let received = Locked<Int32?>(nil)
    /// Kept alive as long as the watcher.
    private let sources: [any DispatchSourceSignal]

    init() {
        let queue = DispatchQueue(label: "persist-migrate.signals")
        var sources: [any DispatchSourceSignal] = []
        let cancellation = cancellation
        let received = received
        for signal in [SIGINT, SIGTERM] {
            // Ignored by the default handler, so that the dispatch source receives it instead.
            Foundation.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            source.setEventHandler {
                received.withLock { if $0 == nil { $0 = signal } }
                cancellation.cancel()
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
}
