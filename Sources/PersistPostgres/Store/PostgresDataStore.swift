internal import CLibPQ
import Foundation
import Logging
import Persist
@_exported import PersistSQL

/// A `DataStore` on a PostgreSQL database: every item type is a table in the store's schema,
/// every attribute a column of a native type chosen by its values' kind, the identifier the
/// primary key.
///
/// Tables and columns are created as items need them. Existing tables are adopted in place: every
/// table with a single-column primary key is an item type, its columns keep their declared types,
/// and legacy SQL can keep using them (see <doc:PostgresStorageFormat> and <doc:PostgresStore>).
///
/// ```swift
/// let store = PostgresDataStore(url: "postgresql://app@db.example.com:5432/shop")
/// try store.setup()
/// try store.writeSync { accessor in
///     try accessor.insert(Item(itemType: "Restaurant", id: "r1", attributes: ["name": "Pizza Place", "rating": 4]))
/// }
/// var request = DataStoreRequest(itemType: "Restaurant")
/// request.filter = .attribute("rating") >= 4
/// let good = try store.read { accessor in try accessor.items(forRequest: request) }
/// try store.tearDown()
/// ```
///
/// Read blocks run in `REPEATABLE READ READ ONLY` snapshots on a pool of reader connections, so
/// they never wait for a write block. Write blocks run on one writer connection and take a
/// transaction-level advisory lock keyed by the schema, so that they are serialized with every
/// other process writing through Persist to the same schema; `writeSync` returns once the
/// commit is durable at the store's ``Options/durability``. A block that finds the server
/// restarted reconnects; a block the server dropped throws and changes nothing.
public final class PostgresDataStore: EngineBackedDataStore {
    /// The scheduler that gives the store the whole `DataStore` contract.
    public let scheduler: WriteScheduler
    /// The server and database; `nil` when the URL given was malformed (``setup()`` then throws).
    public let url: PostgresURL?
    /// The schema holding the store's tables.
    public let schema: String
    /// How the store connects and uses its database.
    public let options: Options
    private let engine: PostgresEngine

    /// A store on the database at `url`. Nothing connects until ``setup()``.
    ///
    /// ```swift
    /// let url = try PostgresURL("postgresql://app@localhost/shop?schema=catalog")
    /// let store = PostgresDataStore(url: url, options: .init(durability: .full))
    /// ```
    public init(url: PostgresURL, options: Options = Options()) {
        self.url = url
        self.options = options
        engine = PostgresEngine(url: .success(url), options: options)
        schema = engine.schemaName
        scheduler = WriteScheduler(engine: engine, logger: options.logger)
    }

    /// A store on the database a URL string names, such as
    /// `postgresql://user@host:port/db?schema=NAME`. A malformed URL makes ``setup()`` throw
    /// `invalidArgument` with a message naming the bad part (never quoting a password).
    ///
    /// ```swift
    /// let store = PostgresDataStore(url: "postgresql://app@localhost:5432/shop")
    /// try store.setup()
    /// ```
    public init(url: String, options: Options = Options()) {
        let parsed = Result { try PostgresURL(url) }.mapError { error in
            error as? DataStoreError ?? DataStoreError(.invalidArgument, "the PostgreSQL URL is malformed")
        }
        self.url = try? parsed.get()
        self.options = options
        engine = PostgresEngine(url: parsed, options: options)
        schema = engine.schemaName
        scheduler = WriteScheduler(engine: engine, logger: options.logger)
    }

    /// The C handle the escape hatch hands out: libpq's `PGconn *`.
    public typealias RawHandle = OpaquePointer

    /// Runs legacy code on the store's own writer connection, serialized with every write block.
    ///
    /// This is the escape hatch for call sites not yet moved to accessors: they keep working on the
    /// same database and never run at the same time as a write block. `body` receives the
    /// `PGconn *` (import your libpq module, such as a system-library target on `libpq`, to call
    /// the C API), outside pipeline mode, so `PQexec` and friends work. The rules:
    ///
    /// - Use the handle only inside `body`; never close it or change its settings.
    /// - Finish every transaction you begin: one left open is rolled back and the call throws
    ///   `misuse`. If `body` throws, an open transaction is rolled back too.
    /// - Clear every `PGresult` you get. Schema changes you make are seen by the next block.
    /// - Do not call the store from inside `body`: a write would be refused as reentrant.
    ///
    /// ```swift
    /// try store.withRawHandle { connection in
    ///     PQclear(PQexec(connection, "UPDATE counters SET hits = hits + 1 WHERE name = 'home'"))
    /// }
    /// ```
    ///
    /// A connection the server ended since the last block (a restart) is replaced before `body`
    /// gets it; one lost while `body` has it makes the call throw `io` ("connection lost"), and
    /// what `body` had not committed is not applied.
    ///
    /// - Throws: `misuse` inside one of the store's blocks or when the store is not open; `io`
    ///   when the server cannot be reached, or the connection was lost during `body`; what
    ///   `body` throws.
    public func withRawHandle<T>(_ body: (RawHandle) throws -> T) throws -> T {
        try scheduler.performExclusive(named: "withRawHandle") { try engine.withRawHandle(body) }
    }

    /// The relations of the schema that are not item types, with the reason for each: views,
    /// materialized views, foreign tables, partitions, and tables without a usable key.
    ///
    /// ```swift
    /// for table in try store.skippedTables() { print("not adopted:", table) }
    /// ```
    public func skippedTables() throws -> [SkippedTable] {
        try engine.skippedTables()
    }

    /// The identity of the store's database, equal for two stores of one database however their
    /// URLs reach it (host names, addresses, roles); `nil` when the server keeps it from this role.
    package func databaseIdentity() throws -> String? {
        try engine.databaseIdentity()
    }

    /// Whether the store's schema exists in the database (a store creates it with its first table).
    package func schemaExists() throws -> Bool {
        try engine.schemaExists()
    }

    /// The key of the transaction-level advisory lock every Persist write block on this store's
    /// schema takes (`pg_advisory_xact_lock(key)`): other programs that take it too are
    /// serialized with Persist's writes.
    ///
    /// ```swift
    /// let key = store.writeLockKey   // SELECT pg_advisory_xact_lock(<key>) in your own transaction
    /// ```
    public var writeLockKey: Int64 { engine.lockKey }
}

/// The old name of `SkippedTable` (from PersistSQL), which the SQLite and PostgreSQL stores share.
@available(*, deprecated, renamed: "SkippedTable")
public typealias PostgresSkippedTable = SkippedTable
