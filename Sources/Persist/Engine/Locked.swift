import Foundation

/// A value guarded by a `pthread` mutex (through `NSLock`): the one lock type of the Persist
/// modules, for state that several threads share.
///
/// `Synchronization.Mutex` would do, but on Linux it locks with raw futexes that ThreadSanitizer
/// cannot see, so every test under `--sanitize=thread` would report the guarded state as racy.
/// Never hold it across I/O: copy what is needed out, then work.
///
/// ```swift
/// let counter = Locked(0)
/// counter.withLock { $0 += 1 }
/// print(counter.value)   // 1
/// ```
package final class Locked<State: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `state` is only read or written while `lock` is held.
    private let lock = NSLock()
    // Exclusivity unchecked: `lock` already serializes every access, and a body that re-entered
    // `withLock` would deadlock on it first; the dynamic check cost a quarter of each lock.
    @exclusivity(unchecked) private var state: State

    /// A lock guarding `state`.
    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// A copy of the state.
    package var value: State { withLock { $0 } }
}
