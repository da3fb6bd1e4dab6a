import Persist

/// The reader sessions of a store: a few are kept open and reused, more are opened when every
/// kept one is busy (so a read never waits for another read, and nested reads cannot deadlock),
/// and closed when handed back.
///
/// The lock guards only the idle list: sessions connect and close outside it.
final class ReaderPool: Sendable {
    private struct State {
        var idle: [PostgresSession] = []
        var isOpen = false
    }

    private let state = Locked(State())
    private let capacity: Int
    private let location: String
    private let makeSession: @Sendable () throws -> PostgresSession

    init(capacity: Int, location: String, makeSession: @escaping @Sendable () throws -> PostgresSession) {
        self.capacity = capacity
        self.location = location
        self.makeSession = makeSession
    }

    /// Lets sessions be checked out.
    func open() {
        state.withLock { $0.isOpen = true }
    }

    /// Closes every idle session; sessions checked out are closed when they come back.
    func close() {
        let sessions = state.withLock { state in
            state.isOpen = false
            defer { state.idle.removeAll() }
            return state.idle
        }
        for session in sessions { session.close() }
    }

    /// An idle session, or a new one.
    func checkout() throws -> PostgresSession {
        let reused: PostgresSession? = try state.withLock { state in
            guard state.isOpen else {
                throw DataStoreError(.misuse, "the PostgreSQL store at \(location) is not open; call setup() first",
                                     path: location)
            }
            return state.idle.popLast()
        }
        return try reused ?? makeSession()
    }

    /// Hands a session back; it is kept when `reusable`, the pool is open and not full.
    func checkin(_ session: PostgresSession, reusable: Bool) {
        let kept = state.withLock { state in
            guard reusable, state.isOpen, state.idle.count < capacity else { return false }
            state.idle.append(session)
            return true
        }
        if !kept { session.close() }
    }
}
