import Foundation

/// A value guarded by a `pthread` mutex (through `NSLock`), which ThreadSanitizer understands.
final class Protected<State>: @unchecked Sendable {
    // @unchecked Sendable: `state` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
