internal import CLibPQ
import Logging
import Persist

/// One connection to a PostgreSQL server: the one owner of its `PGconn`, which it finishes
/// exactly once (in ``close()``, or when it is released), and of its prepared-statement cache.
///
/// A connection is used by one thread at a time, like the SQLite wrapper's connections; it is not
/// `Sendable`.
///
/// ```swift
/// let connection = try PGConnection.connect(to: PostgresURL("postgresql://app@localhost/shop"))
/// defer { connection.close() }
/// let result = try connection.execute("SELECT count(*) FROM items WHERE kind = $1", [.text("book")])
/// let count = try result.int64(0, 0)
/// ```
package final class PGConnection {
    /// The server and database; its password is used only to connect.
    package let url: PostgresURL
    package let options: Options
    /// The `PGconn`; `nil` once closed, or when the last reconnect failed.
    private var handle: OpaquePointer?
    /// Whether the owner called ``close()``: then using the connection is a misuse, not a lost server.
    package private(set) var isClosed = false
    /// Logs the server's notices; lives as long as the connection, since libpq points at it.
    private let notices: NoticeLogger
    /// The named prepared statements made on this session.
    var statements: PGStatementCache
    /// What pipeline mode has sent and not yet read (see `PGConnection+Pipeline.swift`).
    var pipeline = PGPipelineState()
    /// The server's version as a number: 150004 for 15.4.
    package private(set) var serverVersion = 0
    /// What the server said about the last statement of a caller's that failed, with the fields a
    /// `DataStoreError` does not carry (the violated constraint, its schema and table).
    var lastFailure: ServerFailure?

    /// The oldest server version Persist supports: PostgreSQL 12.
    package static let minimumServerVersion = 120_000

    private init(url: PostgresURL, options: Options) {
        self.url = url
        self.options = options
        notices = NoticeLogger(logger: options.logger, location: url.location)
        statements = PGStatementCache(capacity: options.statementCacheCapacity)
    }

    deinit {
        close()
    }

    /// Connects to `url`, waiting at most the connect timeout, and checks that the server is one
    /// Persist can use (version 12 or later, standard-conforming strings, integer timestamps).
    ///
    /// - Throws: `DataStoreError` — `.io` when no server answers, `.invalidArgument` when
    ///   authentication fails, `.notFound` when the database does not exist, `.unsupported` for
    ///   a server Persist cannot use. See ``PostgresErrors``.
    package static func connect(to url: PostgresURL, options: Options = Options()) throws -> PGConnection {
        let connection = PGConnection(url: url, options: options)
        try connection.open()
        options.logger.debug("connected", metadata: ["server": .string(url.location),
                                                      "version": .stringConvertible(connection.serverVersion)])
        return connection
    }

    /// Finishes the connection and forgets its prepared statements. Later calls do nothing.
    package func close() {
        isClosed = true
        finish()
    }

    /// Finishes the session, the one place `PQfinish` is called; the handle is forgotten at once,
    /// so it is finished exactly once.
    private func finish() {
        statements.removeAll()
        pipeline = PGPipelineState()
        if let handle {
            PQfinish(handle)
            self.handle = nil
        }
    }

    /// Whether the connection is closed, or libpq found it broken (`CONNECTION_BAD`): the server
    /// went away, restarted, or terminated this session. A broken connection needs ``reconnect()``.
    ///
    /// libpq notices a lost connection when it next talks to the server, so a connection can look
    /// healthy until a statement fails with "connection lost".
    package var isBroken: Bool {
        guard let handle else { return true }
        return PQstatus(handle) == CONNECTION_BAD
    }

    /// Whether the server said, while the connection was idle, that it is ending the session
    /// (it is shutting down or restarting, or an administrator terminated it); libpq may not
    /// have found the connection broken yet.
    package var isEndedByServer: Bool { notices.sessionEnded }

    /// Replaces the session with a fresh one to the same server, with the same checks as
    /// ``connect(to:options:)``. Prepared statements and session settings of the old session are
    /// gone. When it fails, the connection stays broken and can try again; after ``close()`` it
    /// is a misuse.
    package func reconnect() throws {
        guard !isClosed else { throw PostgresErrors.closed(url: url) }
        options.logger.notice("reconnecting", metadata: ["server": .string(url.location)])
        finish()
        try open()
    }

    /// Starts a session and waits for it, then checks the server; on failure the half-made
    /// session is finished here, by its owner, before the error is thrown.
    private func open() throws {
        let fresh = try PGConnector.start(url)
        handle = fresh
        notices.install(on: fresh)
        do {
            try PGConnector.complete(fresh, url: url, timeout: options.connectTimeout(for: url))
            try checkServer()
        } catch {
            finish()
            throw error
        }
    }

    /// Whether a transaction is open, failed, or not (`PQtransactionStatus`).
    package var transactionStatus: PGTransactionStatus {
        guard let handle else { return .unknown }
        switch PQtransactionStatus(handle) {
        case PQTRANS_IDLE: return .idle
        case PQTRANS_ACTIVE: return .active
        case PQTRANS_INTRANS: return .inTransaction
        case PQTRANS_INERROR: return .inFailedTransaction
        default: return .unknown
        }
    }

    /// The live handle; a misuse error when the connection was closed, an I/O error when the
    /// last reconnect failed.
    var connection: OpaquePointer {
        get throws {
            if let handle { return handle }
            if isClosed { throw PostgresErrors.closed(url: url) }
            let failure = ServerFailure(sqlState: .connectionFailure, message: "the last attempt to reconnect failed")
            throw PostgresErrors.error(failure, url: url, operation: "Using the connection")
        }
    }

    /// The error for a libpq call that failed without a result, from the connection's message.
    func connectionFailure(_ operation: String) -> DataStoreError {
        let text = handle.map { String(cString: PQerrorMessage($0)) } ?? ""
        let state: PostgresSQLState = isBroken ? .connectionFailure : .clientError
        return PostgresErrors.error(.client(text, state), url: url, operation: operation)
    }

    /// The value of a server setting libpq tracks (`PQparameterStatus`), such as `server_version`.
    package func parameterStatus(_ name: String) -> String? {
        guard let handle, let value = PQparameterStatus(handle, name) else { return nil }
        return String(cString: value)
    }

    private func checkServer() throws {
        let handle = try connection
        serverVersion = Int(PQserverVersion(handle))
        let version = parameterStatus("server_version") ?? "\(serverVersion)"
        guard serverVersion >= Self.minimumServerVersion else {
            throw PostgresErrors.unsupported("The PostgreSQL server at \(url.location) runs version "
                + "\(version); Persist needs PostgreSQL 12 or later.", url: url)
        }
        let required = [("standard_conforming_strings", "on"), ("integer_datetimes", "on"), ("client_encoding", "UTF8")]
        for (setting, value) in required where parameterStatus(setting) != value {
            throw PostgresErrors.unsupported("The PostgreSQL server at \(url.location) has \(setting) = "
                + "\(parameterStatus(setting) ?? "unknown"); Persist needs \(value). Set it for the database with "
                + "ALTER DATABASE … SET \(setting) = \(value).", url: url)
        }
    }
}
