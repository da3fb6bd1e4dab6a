internal import CLibPQ
import Foundation
import Logging
import Persist
import PersistSQL

/// One connection of a store, set up for its role (a reader's snapshots or the writer's
/// serialized, durable transactions), in pipeline mode, and reconnected when the server went
/// away between two blocks.
final class PostgresSession: PooledConnection, @unchecked Sendable {
    // @unchecked Sendable: handed between threads only by the pool's and engine's `Locked` slots; one block at a time.

    /// What the session is for.
    enum Role {
        /// Read blocks: `REPEATABLE READ READ ONLY` snapshots.
        case reader
        /// Write blocks and the escape hatch: `READ COMMITTED`, at the store's durability.
        case writer
    }

    let connection: PGConnection
    let role: Role
    private let settings: PostgresDataStore.Options
    /// The store's schema: the sessions' `search_path`, so that legacy SQL given the writer's
    /// connection finds the store's tables by their names.
    private let schema: String
    private var cursorCounter = 0
    /// The generation of the store's schema cache the session's prepared statements were made
    /// for: when the schema changed since, they are prepared again.
    var schemaGeneration = -1
    /// Whether a transaction is open on the server for the current block (begun by the block, or
    /// by the writer on the block's behalf). Used only by the thread that owns the session.
    var isTransactionOpen = false
    /// When the session went idle with statements still unsent (its last read's `COMMIT`);
    /// `nil` when it has none. Read by the reader pool under its lock, set while owning.
    var idleSince: DispatchTime? {
        get { idle.value }
        set { idle.withLock { $0 = newValue } }
    }
    private let idle = Locked<DispatchTime?>(nil)
    /// Whether a thread is using the connection: the block's own, or the writer starting the
    /// block's snapshot. Never held across I/O: a thread takes it, does its work, gives it back.
    private let owned = Locked(false)
    /// The COPY a bulk load streams rows into, while one is open (see `PostgresSession+Copy.swift`).
    /// Used only by the thread that owns the session.
    var openCopy: CopyStream?

    private init(connection: PGConnection, role: Role, settings: PostgresDataStore.Options, schema: String) {
        self.connection = connection
        self.role = role
        self.settings = settings
        self.schema = schema
    }

    /// Connects to `url` and sets the session up for `role`.
    static func open(_ url: PostgresURL, schema: String, role: Role, options: PostgresDataStore.Options) throws
        -> PostgresSession {
        let connection = try PGConnection.connect(to: url, options: PGConnection.Options(
            connectTimeout: options.connectTimeout, statementCacheCapacity: 256, logger: options.logger))
        let session = PostgresSession(connection: connection, role: role, settings: options, schema: schema)
        do {
            try session.configure()
        } catch {
            connection.close()
            throw error
        }
        return session
    }

    var url: PostgresURL { connection.url }

    /// The session settings of the role, then pipeline mode.
    private func configure() throws {
        var settings = [
            "SET statement_timeout = \(Self.milliseconds(self.settings.statementTimeout))",
            "SET lock_timeout = \(Self.milliseconds(self.settings.lockTimeout))",
            "SET search_path = \(SQLName.quoted(schema))\(schema == PostgresURL.defaultSchema ? "" : ", public")",
        ]
        switch role {
        case .reader:
            settings += ["SET default_transaction_isolation = 'repeatable read'", "SET default_transaction_read_only = on"]
        case .writer:
            let commit = self.settings.durability == .full ? "on" : "local"
            settings += ["SET default_transaction_isolation = 'read committed'", "SET default_transaction_read_only = off",
                         "SET synchronous_commit = \(commit)"]
        }
        try connection.executeScript(settings.joined(separator: "; "), operation: "Setting up the session")
        try connection.enterPipelineMode()
    }

    /// A timeout for a `SET`: whole milliseconds, at least 1; 0 (none) for `nil`.
    private static func milliseconds(_ duration: Duration?) -> Int64 {
        guard let duration else { return 0 }
        let (seconds, attoseconds) = duration.components
        let millis = seconds.multipliedReportingOverflow(by: 1000)
        if millis.overflow { return Int64(Int32.max) }
        return min(max(1, millis.partialValue + attoseconds / 1_000_000_000_000_000), Int64(Int32.max))
    }

    /// Readies the session for a block: reconnects when libpq found the connection broken, or the
    /// server closed it while it was idle (it was restarted, or the session terminated).
    ///
    /// Results earlier blocks left unread (the `COMMIT` of the last read) are not waited for here:
    /// the block's first statement goes out at once and they are read before its own result.
    func prepareForBlock() throws {
        if connection.isBroken || isClosedByServer() { try reconnect() }
    }

    /// Whether the server closed the socket while the session was idle: it is readable, and
    /// reading finds its end.
    ///
    /// A server that ends a session first sends why (`FATAL: terminating connection…`), which
    /// libpq, idle, takes for a notice; the end of the stream may come later: the notice is
    /// enough.
    private func isClosedByServer() -> Bool {
        guard !connection.hasPendingWork, let socket = connection.socketDescriptor else { return false }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return connection.isEndedByServer }
        return (try? connection.pollNotifications()) == nil || connection.isBroken || connection.isEndedByServer
    }

    /// Replaces the connection's session with a new one, set up again.
    func reconnect() throws {
        try connection.reconnect()
        try configure()
    }

    /// Runs statements in the pipeline and returns their results.
    /// An open COPY is ended first, so that its rows are stored before the statements run.
    func run(_ commands: [PGCommand], synchronize: Bool = false) throws -> [PGResult] {
        try endCopyWhileOwning()
        return try connection.runPipeline(commands, synchronize: synchronize)
    }

    /// The statements that start a transaction: `BEGIN`, then deallocations of prepared
    /// statements evicted from the cache (harmless inside the transaction, and it is healthy).
    func beginCommands() -> [PGCommand] {
        let deallocations = connection.takeRetiredStatementDeallocations()
        return deallocations.isEmpty ? [Self.begin] : [Self.begin] + deallocations
    }

    private static let begin = PGCommand("BEGIN", prepared: true, operation: "Starting a transaction")

    /// A cursor name not used before on this session.
    func nextCursorName() -> String {
        cursorCounter += 1
        return "persist_cursor_\(cursorCounter)"
    }

    /// Waits until no other thread uses the connection and takes it; `false` when `timeout`
    /// passed first.
    func acquire(timeout: Duration? = nil) -> Bool {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            let taken = owned.withLock { owned in
                if owned { return false }
                owned = true
                return true
            }
            if taken { return true }
            if let deadline, ContinuousClock.now >= deadline { return false }
            sched_yield()
        }
    }

    /// Gives the connection back.
    func release() {
        owned.withLock { $0 = false }
    }

    /// Runs `body` owning the connection.
    func owning<T>(_ body: () throws -> T) rethrows -> T {
        _ = acquire()
        defer { release() }
        return try body()
    }

    /// Closes the connection.
    func close() {
        connection.close()
    }

    /// Whether an error says the connection was lost (the server stopped, restarted, or ended
    /// the session), so that a block that had not started can run again on a new one.
    static func isConnectionLoss(_ error: DataStoreError) -> Bool {
        guard let code = error.engineCode, let state = PostgresSQLState(engineCode: code) else { return false }
        return state.errorClass == "08" || ["57P01", "57P02", "57P03"].contains(state.code)
    }

    /// Whether an error says the server has no connection slot left (`max_connections`, or the
    /// role's or database's `CONNECTION LIMIT`: SQLSTATE 53300), which frees up once other sessions end.
    static func isOutOfConnections(_ error: DataStoreError) -> Bool {
        guard let code = error.engineCode, let state = PostgresSQLState(engineCode: code) else { return false }
        return state.code == "53300"
    }
}
