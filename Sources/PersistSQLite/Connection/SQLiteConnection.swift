internal import CSQLite
import Foundation
import Persist
import PersistSQL

/// One SQLite connection: owns its `sqlite3` handle and its prepared-statement cache, and closes
/// both exactly once.
///
/// A connection is used by one thread at a time: the writer connection only on the store's write
/// queue, a reader connection only by the read block that checked it out of the ``ReaderPool``.
final class SQLiteConnection: PooledConnection, @unchecked Sendable {
    // @unchecked Sendable: handed between threads only by the engine's and ReaderPool's `Locked` slots; one user at a time.
    /// The `sqlite3` handle; `nil` once closed.
    private(set) var handle: OpaquePointer?
    /// The database file, for messages.
    let path: String
    // Exclusivity unchecked (the cache, `recent` and `clock`): the connection has one user at a
    // time (see above), and each access is a short lookup or update that calls out to nothing.
    /// Keyed by the SQL's bytes (see ``SQLText``).
    @exclusivity(unchecked) private var cache: [SQLText: SQLiteStatement] = [:]
    /// The statements last taken from the cache, newest first: looked at before the cache, without
    /// hashing their SQL (a read block runs two or three statements in turn, a write block one per
    /// item).
    @exclusivity(unchecked) private var recent: [SQLiteStatement] = []
    /// How many statements ``recent`` keeps.
    private static let recentCapacity = 6
    @exclusivity(unchecked) private var clock: UInt64 = 0
    /// The schema version (`PRAGMA schema_version`) of the schema this connection last worked
    /// with, once it has (see ``catchUp(toSchemaVersion:)``).
    private var schemaVersion: Int64?

    /// The schema a read transaction last read on this connection, and its version (see
    /// ``ReadTransaction``).
    private(set) var checkedSchema: (version: Int64, schema: DatabaseSchema)?
    /// SQLite's data version when ``checkedSchema`` was last confirmed (kept apart so that
    /// comparing it copies no schema).
    private(set) var checkedDataVersion: UInt32?

    /// How many prepared statements a connection keeps.
    static let cacheCapacity = 96

    /// How many connections are open in this process, for tests that look for leaks.
    static let openCount = Locked(0)

    private init(handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
    }

    deinit {
        close()
    }

    /// Opens a connection.
    ///
    /// - Parameters:
    ///   - path: the file name given to SQLite (a URI when `flags` has `SQLITE_OPEN_URI`).
    ///   - displayPath: the path named in messages.
    ///   - flags: `sqlite3_open_v2` flags; `NOMUTEX` and extended result codes are added.
    ///   - busyTimeout: how long to wait for another connection's lock.
    static func open(path: String, displayPath: String, flags: Int32, busyTimeout: Duration) throws -> SQLiteConnection {
        var handle: OpaquePointer?
        let result = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard result == SQLITE_OK, let handle else {
            let systemError = SQLiteErrors.systemError(of: handle, errno: errno)
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
            if let handle { sqlite3_close_v2(handle) }
            throw SQLiteErrors.error(code: result, message: message, path: displayPath, operation: "Opening the database",
                                     creating: flags & SQLITE_OPEN_CREATE != 0,
                                     readOnly: flags & SQLITE_OPEN_READONLY != 0, systemError: systemError)
        }
        let connection = SQLiteConnection(handle: handle, path: displayPath)
        openCount.withLock { $0 += 1 }
        try registerFunctions(handle, path: displayPath)
        let (seconds, attoseconds) = busyTimeout.components
        let milliseconds = Int32(clamping: seconds.multipliedReportingOverflow(by: 1000).overflow
            ? Int64.max : seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        sqlite3_busy_timeout(handle, milliseconds)
        return connection
    }

    /// Finalizes every statement and closes the handle. Later calls do nothing.
    func close() {
        for statement in cache.values { statement.finalize() }
        cache.removeAll()
        recent.removeAll()
        if let handle {
            // close_v2 never fails: statements a legacy closure left unfinalized keep the
            // handle alive until they are finalized.
            sqlite3_close_v2(handle)
            self.handle = nil
            Self.openCount.withLock { $0 -= 1 }
        }
    }

    /// Makes SQLite read the schema again on this connection when it changed since the connection
    /// last worked with it: another connection (legacy code, another process, another connection
    /// of the store) altered a table. SQLite notices a change only when a statement touches the
    /// changed table; a statement it compiles against its old schema first (`ALTER TABLE t ADD
    /// COLUMN b` after another connection dropped `b`) fails with the old schema's error.
    func catchUp(toSchemaVersion version: Int64) throws {
        defer { schemaVersion = version }
        guard let known = schemaVersion, known != version else { return }
        // A statement on the schema table checks the schema's cookie, and on a change SQLite
        // drops what it read and reads the schema again before running it.
        try execute("SELECT 1 FROM sqlite_schema LIMIT 0", operation: "Reading the schema")
    }

    /// SQLite's data version of the main database on this connection: it changes whenever the
    /// connection finds the file changed as a transaction starts, and when it commits.
    func dataVersion() throws -> UInt32 {
        var version: UInt32 = 0
        let result = sqlite3_file_control(try database, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        guard result == SQLITE_OK else { throw failure(result, "Reading the data version") }
        return version
    }

    /// Notes that the transaction open on this connection reads `schema`, of `schemaVersion`.
    func noteCheck(_ schema: DatabaseSchema, version schemaVersion: Int64) throws {
        checkedDataVersion = try dataVersion()
        checkedSchema = (schemaVersion, schema)
    }

    /// Notes that the transaction open on this connection reads the schema noted last.
    func noteCheckUnchanged() throws {
        checkedDataVersion = try dataVersion()
    }

    var database: OpaquePointer {
        get throws {
            guard let handle else {
                throw DataStoreError(.misuse, "a closed connection to the SQLite database at \(path) was used", path: path)
            }
            return handle
        }
    }

    /// The error for a failed call on this connection, with SQLite's current message.
    func failure(_ code: Int32, _ operation: String) -> DataStoreError {
        let systemError = SQLiteErrors.systemError(of: handle, errno: errno)
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        return SQLiteErrors.error(code: code, message: message, path: path, operation: operation, systemError: systemError)
    }

    /// Whether a transaction is open on this connection.
    var isInTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// Whether SQLite opened the main database read-only (asked for, or forced by the file).
    var isReadOnly: Bool {
        handle.map { sqlite3_db_readonly($0, "main") == 1 } ?? true
    }

    /// The number of rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int {
        handle.map { Int(sqlite3_changes64($0)) } ?? 0
    }

    // MARK: Statements

    /// A new statement that is not cached; it is finalized when released.
    func prepare(_ sql: String, persistent: Bool = false) throws -> SQLiteStatement {
        let database = try database
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let result = sqlite3_prepare_v3(database, sql, -1, flags, &statement, nil)
        guard result == SQLITE_OK, let statement else {
            throw failure(result, "Preparing a statement")
        }
        return SQLiteStatement(handle: statement, sql: sql, path: path)
    }

    /// Runs `body` with the cached statement for `sql`, bound to `bindings`, and resets it after.
    ///
    /// When the cached statement is already running (a nested call with the same SQL), a fresh
    /// statement is used instead, so the outer one is not disturbed.
    func withStatement<T>(_ sql: String, _ bindings: [SQLBinding] = [], _ body: (SQLiteStatement) throws -> T) throws -> T {
        let statement = try hold(sql, bindings)
        defer { release(statement) }
        return try body(statement)
    }

    /// The cached statement for `sql` (or a fresh one, as ``withStatement(_:_:_:)`` takes), bound
    /// to `bindings`, for a caller that keeps it past one call; ``release(_:)`` hands it back.
    func hold(_ sql: String, _ bindings: [SQLBinding] = []) throws -> SQLiteStatement {
        let statement = try checkout(sql)
        do {
            try statement.bind(bindings)
        } catch {
            release(statement)
            throw error
        }
        return statement
    }

    /// Resets a statement from ``hold(_:_:)`` and hands it back.
    func release(_ statement: SQLiteStatement) {
        statement.reset()
        statement.inUse = false
    }

    /// Runs a statement that returns no rows (or whose rows are ignored).
    func execute(_ sql: String, _ bindings: [SQLBinding] = [], operation: @autoclosure () -> String) throws {
        try withStatement(sql, bindings) { statement in
            while try statement.step(operation()) {}
        }
    }

    /// The first column of the first row of a query, as an integer (0 when there is no row).
    func integer(_ sql: String, _ bindings: [SQLBinding] = [], operation: @autoclosure () -> String) throws -> Int64 {
        try withStatement(sql, bindings) { statement in
            try statement.step(operation()) ? statement.int64(0) : 0
        }
    }

    /// Runs `body` with the integer pragma `name` set to `value(current)`, then sets it back
    /// (whether `body` succeeds or throws).
    ///
    /// ```swift
    /// try connection.withPragma("cache_size", setTo: { $0 / 2 }, operation: "Sizing the page cache") { … }
    /// ```
    func withPragma<T>(
        _ name: String, setTo value: (Int64) -> Int64, operation: @autoclosure () -> String, _ body: () throws -> T
    ) throws -> T {
        let previous = try integer("PRAGMA \(name)", operation: operation())
        try executeOnce("PRAGMA \(name) = \(value(previous))", operation: operation())
        defer { try? executeOnce("PRAGMA \(name) = \(previous)", operation: operation()) }
        return try body()
    }

    /// The first column of the first row of a query, as text (`nil` when there is no row).
    func text(_ sql: String, operation: @autoclosure () -> String) throws -> String? {
        try withStatement(sql) { statement in
            try statement.step(operation()) ? statement.text(0) : nil
        }
    }

    /// Runs a statement once without caching it (schema changes, pragmas that change settings).
    func executeOnce(_ sql: String, operation: @autoclosure () -> String) throws {
        let statement = try prepare(sql)
        defer { statement.finalize() }
        while try statement.step(operation()) {}
    }

    private func checkout(_ sql: String) throws -> SQLiteStatement {
        clock &+= 1
        // A statement used a moment ago: strings from one schema, and literals, share storage, so
        // these comparisons are mostly pointer checks, not a hash of the SQL. Byte for byte, as
        // SQLite reads it (see ``SQLText``); Swift's equality first, which the optimizer knows
        // (calling `sameBytes` for every statement looked at cost a retain of each).
        for statement in recent where statement.sql == sql
            && (statement.sql._isIdentical(to: sql) || SQLText.sameBytes(statement.sql, sql)) {
            return try handOut(statement)
        }
        let key = SQLText(sql)
        if let cached = cache[key] {
            remember(cached)
            return try handOut(cached)
        }
        let statement = try prepare(sql, persistent: true)
        statement.inUse = true
        statement.lastUse = clock
        if cache.count >= Self.cacheCapacity { evictLeastRecentlyUsed() }
        cache[key] = statement
        remember(statement)
        return statement
    }

    /// `statement` marked in use, or a fresh copy when it already is (a nested call with its SQL).
    private func handOut(_ statement: SQLiteStatement) throws -> SQLiteStatement {
        guard !statement.inUse else {
            let fresh = try prepare(statement.sql)
            fresh.inUse = true
            return fresh
        }
        statement.inUse = true
        statement.lastUse = clock
        return statement
    }

    private func remember(_ statement: SQLiteStatement) {
        if recent.count >= Self.recentCapacity { recent.removeLast() }
        recent.insert(statement, at: 0)
    }

    private func evictLeastRecentlyUsed() {
        var oldest: (key: SQLText, use: UInt64)?
        for (key, statement) in cache where !statement.inUse {
            if oldest == nil || statement.lastUse < oldest?.use ?? .max { oldest = (key, statement.lastUse) }
        }
        if let oldest, let statement = cache.removeValue(forKey: oldest.key) {
            recent.removeAll { $0 === statement }
            statement.finalize()
        }
    }
}
