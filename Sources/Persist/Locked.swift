import Foundation

/// A value guarded by a `pthread` mutex (through `NSLock`), for state that several threads share.
///
/// `Synchronization.Mutex` would do, but on Linux it locks with raw futexes that ThreadSanitizer
/// cannot see, so every test under `--sanitize=thread` would report the guarded state as racy.
/// Wrappers and their tests use this one.
///
/// ```swift
/// let counter = Locked(0)
/// counter.withLock { $0 += 1 }
/// print(counter.value)   // 1
/// ```
public final class Locked<State>: @unchecked Sendable {
    // @unchecked Sendable: `state` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var state: State

    /// A lock guarding `state`.
    public init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    public func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// A copy of the state.
    public var value: State { withLock { $0 } }
}
