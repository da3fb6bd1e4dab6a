import Dispatch
import Persist

/// The reader sessions of a store: a few are kept open and reused, more are opened when every
/// kept one is busy (so a read never waits for another read, and nested reads cannot deadlock),
/// and closed when handed back.
///
/// A read block ends by queuing its `COMMIT`, which goes out with the session's next statement;
/// a session that stays idle gets it sent by the pool within a few milliseconds, so that no
/// snapshot (and no lock it holds) outlives its block by more.
///
/// The lock guards only the idle list: sessions connect, flush and close outside it.
final class ReaderPool: Sendable {
    /// How long a session may stay idle with its last read's `COMMIT` unsent.
    static let flushDelay = DispatchTimeInterval.milliseconds(5)

    private struct State {
        var idle: [PostgresSession] = []
        var isOpen = false
        /// Whether a flush of idle sessions is scheduled.
        var flushScheduled = false
    }

    private let state = Locked(State())
    private let capacity: Int
    private let location: String
    private let makeSession: @Sendable () throws -> PostgresSession
    /// Where flushes run: a queue of the pool's own, not Dispatch's global queue, whose threads app
    /// code may keep busy (a flush that waits for one leaves the reads' locks held meanwhile). A
    /// serial queue of its own gets a thread even when the global queue's are all taken.
    private let flushQueue = DispatchQueue(label: "persist.postgres.reader-flush")

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
        // A flush may be using one: close each owning it.
        for session in sessions { session.owning { session.close() } }
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
        let hasUnsent = session.owning { () -> Bool in
            let hasUnsent = session.connection.hasUnsentCommands
            session.idleSince = hasUnsent ? DispatchTime.now() : nil
            return hasUnsent
        }
        let (kept, schedule) = state.withLock { state -> (Bool, Bool) in
            guard reusable, state.isOpen, state.idle.count < capacity else { return (false, false) }
            state.idle.append(session)
            guard hasUnsent, !state.flushScheduled else { return (true, false) }
            state.flushScheduled = true
            return (true, true)
        }
        if !kept {
            session.owning {
                try? session.connection.flushDeferred()
                session.close()
            }
        }
        if schedule {
            flushQueue.asyncAfter(deadline: .now() + Self.flushDelay) { [self] in flushIdle() }
        }
    }

    /// Sends what idle sessions have queued (the `COMMIT` of their last read). A session stays in
    /// the idle list meanwhile: a block that takes it waits for the flush, which owns it briefly.
    private func flushIdle() {
        let (sessions, reschedule) = state.withLock { state -> ([PostgresSession], Bool) in
            let now = DispatchTime.now()
            // Sessions used again meanwhile send their COMMIT with their next statement; only the
            // ones idle since before the delay began are flushed here.
            var due: [PostgresSession] = []
            var waiting = false
            for session in state.idle {
                guard let since = session.idleSince else { continue }
                if since + Self.flushDelay <= now { due.append(session) } else { waiting = true }
            }
            state.flushScheduled = waiting
            return (due, waiting)
        }
        for session in sessions where session.acquire(timeout: .zero) {
            if !session.connection.isClosed, session.connection.hasUnsentCommands { try? session.connection.flushDeferred() }
            session.idleSince = nil
            session.release()
        }
        if reschedule {
            flushQueue.asyncAfter(deadline: .now() + Self.flushDelay) { [self] in flushIdle() }
        }
    }
}
