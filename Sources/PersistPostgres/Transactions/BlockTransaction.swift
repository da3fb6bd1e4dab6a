import Persist

/// The transaction of one block on one session: a read block's snapshot, or a write block's
/// transaction, begun by the engine.
///
/// A read block that runs no statement costs nothing; one that does opens its snapshot in the
/// same round trip as its first statement, and ends it without waiting (the `COMMIT` is sent as
/// the block ends, and its result read when the session is next used). So that the snapshot is
/// still the state at the block's start, a write block of the same store that commits while a
/// read block has begun and run no statement first opens that block's snapshot on its session
/// (see ``PendingSnapshots``).
final class BlockTransaction {
    let session: PostgresSession
    /// Whether results have been handed out: then the transaction can no longer start over.
    var hasObservedResults = false
    /// The server error that aborted the transaction, if one did: every later statement but a
    /// rollback would fail.
    var failure: DataStoreError?
    /// Called once the snapshot is open (to stop the writer from opening it).
    private var snapshotOpened: (() -> Void)?

    /// A transaction that begins with the first statement (a read block's); `snapshotOpened` runs
    /// when it has begun.
    init(lazilyOn session: PostgresSession, snapshotOpened: (() -> Void)? = nil) {
        self.session = session
        self.snapshotOpened = snapshotOpened
        session.owning { session.isTransactionOpen = false }
    }

    /// A transaction the caller has begun (a write block's).
    init(begunOn session: PostgresSession) {
        self.session = session
        session.isTransactionOpen = true
    }

    var location: String { session.url.location }

    /// Runs statements in the transaction, beginning it first if need be. When the statement
    /// that begins it finds the connection lost, the session reconnects and tries once more.
    func run(_ commands: [PGCommand]) throws -> [PGResult] {
        try session.owning {
            defer { notifyOpened() }
            do {
                guard !session.isTransactionOpen else { return try session.run(commands) }
                let begin = session.beginCommands()
                session.isTransactionOpen = true
                do {
                    return Array(try session.run(begin + commands).dropFirst(begin.count))
                } catch let error as DataStoreError where PostgresSession.isConnectionLoss(error) {
                    try session.reconnect()
                    let again = session.beginCommands()
                    return Array(try session.run(again + commands).dropFirst(again.count))
                }
            } catch let error as DataStoreError where error.engineCode != nil {
                if error.engineCode == PostgresSQLState.inFailedTransaction.engineCode, let failure {
                    throw DataStoreError(
                        .misuse,
                        "an earlier statement of this block failed (\(failure.message)), and PostgreSQL runs no other "
                            + "statement in the block's transaction after a failure: end the block and do the rest in "
                            + "another",
                        path: error.path, engineCode: error.engineCode, engineMessage: error.engineMessage)
                }
                if failure == nil { failure = error }
                throw error
            }
        }
    }

    private func notifyOpened() {
        guard let opened = snapshotOpened else { return }
        snapshotOpened = nil
        opened()
    }

    /// Rolls back and forgets the transaction, so that the next statement begins a new one (for
    /// a read block that found the schema changed before it saw anything).
    func restart() throws {
        try session.owning {
            guard session.isTransactionOpen else { return }
            session.isTransactionOpen = false
            failure = nil
            _ = try session.run([PGCommand("ROLLBACK", prepared: true, operation: "Restarting a read")])
        }
    }

    /// Ends a read transaction without waiting: `COMMIT` is queued, to go out with the session's
    /// next statement, or within a millisecond when the session stays idle (the reader pool sends
    /// it), and its result is read with the next statement's.
    func endWithoutWaiting() {
        notifyOpened()
        session.owning {
            guard session.isTransactionOpen else { return }
            session.isTransactionOpen = false
            session.connection.deferCommands([PGCommand("COMMIT", prepared: true, operation: "Ending a read")])
        }
    }
}

/// The read blocks of a store that have begun and not yet opened their snapshot.
///
/// Before a write block commits, it opens the snapshot of each (`BEGIN` and `SELECT 1` on the
/// block's session, owning it for that round trip), so that no read block sees a write that
/// committed after it began. A read block busy running its first statement is waited for, up to
/// a moment: its snapshot is being opened.
final class PendingSnapshots: Sendable {
    private let sessions = Locked<[ObjectIdentifier: PostgresSession]>([:])

    func add(_ session: PostgresSession) {
        sessions.withLock { $0[ObjectIdentifier(session)] = session }
    }

    func remove(_ session: PostgresSession) {
        _ = sessions.withLock { $0.removeValue(forKey: ObjectIdentifier(session)) }
    }

    /// Opens the snapshot of every pending read block.
    func openAll() {
        let pending = sessions.withLock { Array($0.values) }
        for session in pending {
            // A block running a statement holds its session: wait for it, but never for long (it
            // may be waiting for a lock this write holds).
            guard session.acquire(timeout: .milliseconds(200)) else { continue }
            defer { session.release() }
            guard !session.isTransactionOpen, sessions.withLock({ $0[ObjectIdentifier(session)] != nil }) else { continue }
            do {
                _ = try session.run(session.beginCommands()
                    + [PGCommand("SELECT 1", prepared: true, operation: "Opening a read block's snapshot")])
                session.isTransactionOpen = true
            } catch {
                // The block will open its snapshot itself, and report any trouble.
            }
        }
    }
}
