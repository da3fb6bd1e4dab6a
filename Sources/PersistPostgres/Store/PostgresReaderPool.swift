import Dispatch
import Persist
import PersistSQL

/// The reader sessions of a store, kept by the shared ``ReaderPool``, and the `COMMIT` each read
/// block leaves queued: it goes out with the session's next statement, and a session that stays
/// idle gets it sent within a few milliseconds, so that no snapshot (and no lock it holds)
/// outlives its block by more.
final class PostgresReaderPool: Sendable {
    /// How long a session may stay idle with its last read's `COMMIT` unsent.
    static let flushDelay = DispatchTimeInterval.milliseconds(5)

    private let pool: ReaderPool<PostgresSession>
    /// Whether a flush of idle sessions is scheduled.
    private let flushScheduled = Locked(false)
    /// Where flushes run: a queue of the pool's own, not Dispatch's global queue, whose threads app
    /// code may keep busy (a flush that waits for one leaves the reads' locks held meanwhile). A
    /// serial queue of its own gets a thread even when the global queue's are all taken.
    private let flushQueue = DispatchQueue(label: "persist.postgres.reader-flush")

    init(capacity: Int, location: String, makeSession: @escaping @Sendable () throws -> PostgresSession) {
        pool = ReaderPool(capacity: capacity, location: location, engine: "PostgreSQL", makeConnection: makeSession)
    }

    func open() {
        pool.open()
    }

    /// Closes every idle session; sessions checked out are closed when they come back.
    func close() {
        // A flush may be using one: close each owning it.
        for session in pool.close() { session.owning { session.close() } }
    }

    func checkout() throws -> PostgresSession {
        try pool.checkout()
    }

    /// Hands a session back; one the pool does not keep sends what it has queued and closes.
    func checkin(_ session: PostgresSession, reusable: Bool) {
        let hasUnsent = session.owning { () -> Bool in
            let hasUnsent = session.connection.hasUnsentCommands
            session.idleSince = hasUnsent ? DispatchTime.now() : nil
            return hasUnsent
        }
        if let rejected = pool.checkin(session, reusable: reusable) {
            rejected.owning {
                try? rejected.connection.flushDeferred()
                rejected.close()
            }
        } else if hasUnsent {
            scheduleFlush()
        }
    }

    private func scheduleFlush() {
        let schedule = flushScheduled.withLock { scheduled in
            defer { scheduled = true }
            return !scheduled
        }
        guard schedule else { return }
        flushQueue.asyncAfter(deadline: .now() + Self.flushDelay) { [self] in flushIdle() }
    }

    /// Sends what idle sessions have queued (the `COMMIT` of their last read). A session stays in
    /// the idle list meanwhile: a block that takes it waits for the flush, which owns it briefly.
    private func flushIdle() {
        // Cleared first: a session handed back from now on schedules a flush of its own, and one
        // handed back before is in the idle list read next.
        flushScheduled.withLock { $0 = false }
        let now = DispatchTime.now()
        var waiting = false
        for session in pool.idle {
            guard let since = session.idleSince else { continue }
            // Sessions used again meanwhile send their COMMIT with their next statement; only the
            // ones idle since before the delay began are flushed here.
            guard since + Self.flushDelay <= now else {
                waiting = true
                continue
            }
            guard session.acquire(timeout: .zero) else { continue }
            if !session.connection.isClosed, session.connection.hasUnsentCommands { try? session.connection.flushDeferred() }
            session.idleSince = nil
            session.release()
        }
        if waiting { scheduleFlush() }
    }
}
