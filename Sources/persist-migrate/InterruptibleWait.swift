import Dispatch
import Foundation
import Persist

/// One blocking call run on a thread of its own, so that the tool's thread can stop waiting for it
/// when SIGINT or SIGTERM arrives: opening a PostgreSQL store waits for the server up to its
/// connect timeout (10 seconds unless the URL says otherwise), and the migration can check for a
/// signal only once it returns.
final class InterruptibleWait<Value: Sendable>: Sendable {
    private enum State: Sendable {
        case running
        case finished(Result<Value, any Error>)
        /// The tool stopped waiting: what the call returns later is handed to `abandoned`.
        case abandoned
    }

    private let state = Locked(State.running)
    private let wakeup = DispatchSemaphore(value: 0)

    /// Wakes the waiting thread, as a signal does.
    func interrupt() {
        wakeup.signal()
    }

    /// Runs `body`, and returns what it returns or throws what it throws, unless `interrupted()`
    /// becomes true first (checked whenever ``interrupt()`` is called): then it throws
    /// `CancellationError` at once, and a value `body` returns later goes to `abandoned`.
    func run(_ body: @escaping @Sendable () throws -> Value, interrupted: () -> Bool,
             abandoned: @escaping @Sendable (Value) -> Void) throws -> Value {
        let state = state
        let wakeup = wakeup
        Thread.detachNewThread {
            let result = Result { try body() }
            let kept = state.withLock { current -> Bool in
                guard case .running = current else { return false }
                current = .finished(result)
                return true
            }
            if !kept, case .success(let value) = result { abandoned(value) }
            wakeup.signal()
        }
        while true {
            wakeup.wait()
            // nil: keep waiting; the call's result, or CancellationError once abandoned.
            let outcome = state.withLock { current -> Result<Value, any Error>? in
                if case .finished(let result) = current { return result }
                guard interrupted() else { return nil }
                current = .abandoned
                return .failure(CancellationError())
            }
            if let outcome { return try outcome.get() }
        }
    }
}
