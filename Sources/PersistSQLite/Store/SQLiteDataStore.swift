import Foundation
import Logging
import Persist
@_exported import PersistSQL

/// A `DataStore` on an SQLite database: every item type is a table, every attribute a column,
/// the identifier the primary key.
///
/// Tables and columns are created as items need them. Existing databases are adopted in place:
/// every table with a single-column primary key or a rowid is an item type, and nothing is
/// converted, so legacy code can keep using the same file (see <doc:SQLiteStorageFormat> and
/// <doc:SQLiteStore>).
///
/// ```swift
/// let store = SQLiteDataStore(path: "/var/lib/app/data.sqlite")
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
/// The file runs in WAL mode with one writer connection and a pool of reader connections: a read
/// block sees one committed snapshot and never waits for a write block, and write blocks are
/// `BEGIN IMMEDIATE` transactions serialized by the store.
public final class SQLiteDataStore: EngineBackedDataStore {
    /// The scheduler that gives the store the whole `DataStore` contract.
    public let scheduler: WriteScheduler
    /// The database file.
    public let path: String
    /// How the store opens and uses the database.
    public let options: Options
    private let engine: SQLiteEngine

    /// A store on the database at `path`. Nothing is opened until ``setup()``.
    ///
    /// The path names a file, taken literally: `:memory:` and `file:…` are file names, not
    /// SQLite's in-memory database or a URI (use ``inMemory(options:)`` for a private database),
    /// and an empty path is `invalidArgument` at setup. A relative path is resolved against the
    /// working directory at setup: changing the directory later moves nothing.
    ///
    /// ```swift
    /// let store = SQLiteDataStore(path: "app.sqlite", options: .init(durability: .full))
    /// ```
    public convenience init(path: String, options: Options = Options()) {
        self.init(path: path, options: options, isScratch: false)
    }

    private init(path: String, options: Options, isScratch: Bool, buildsPrivateFile: Bool = false) {
        self.path = path
        self.options = options
        engine = SQLiteEngine(path: path, options: options, isScratch: isScratch, buildsPrivateFile: buildsPrivateFile)
        scheduler = WriteScheduler(engine: engine, logger: options.logger)
    }

    /// A store that builds a new database at `path` that only it uses until it is closed, and that
    /// the caller throws away if the work fails (`persist-migrate`'s staging file): write blocks
    /// keep their rollback journal in memory and do not sync, so that each page is written once,
    /// and the file is switched to WAL mode when the store closes. A crash leaves a file to
    /// discard, so the caller, not the store, keeps the data safe: no ``Options`` value gives this.
    package static func buildingPrivateFile(at path: String, options: Options) -> SQLiteDataStore {
        SQLiteDataStore(path: path, options: options, isScratch: false, buildsPrivateFile: true)
    }

    /// A store on a private, empty database in RAM-backed storage, for tests.
    ///
    /// It behaves exactly like a file-backed store (WAL, snapshot reads, the same SQL), because it
    /// is one: its file lives in `/dev/shm` (memory) on Linux, or in the temporary directory where
    /// there is none, and is removed when the store is deinitialized. Its data survives
    /// ``tearDown()`` and ``setup()`` of the same object, as with `InMemoryDataStore`. SQLite's
    /// own in-memory databases cannot serve a snapshot read while a write transaction is open,
    /// which the `DataStore` contract requires. Durability is off; `readOnly`,
    /// `readsUnchangingFile`, `keepsJournalMode` and `createIfMissing` are ignored.
    ///
    /// ```swift
    /// let store = SQLiteDataStore.inMemory()
    /// try store.setup()
    /// ```
    public static func inMemory(options: Options = Options()) -> SQLiteDataStore {
        var isDirectory: ObjCBool = false
        let shared = "/dev/shm"
        let directory = FileManager.default.fileExists(atPath: shared, isDirectory: &isDirectory)
            && isDirectory.boolValue && FileManager.default.isWritableFile(atPath: shared)
            ? shared : FileManager.default.temporaryDirectory.path
        let path = (directory as NSString).appendingPathComponent("persist-\(UUID().uuidString).sqlite")
        var options = options
        options.readsUnchangingFile = false
        options.keepsJournalMode = false
        return SQLiteDataStore(path: path, options: options, isScratch: true)
    }

    /// The C handle the escape hatch hands out: SQLite's `sqlite3 *`.
    public typealias RawHandle = OpaquePointer

    /// Runs legacy code on the store's own writer connection, serialized with every write block.
    ///
    /// This is the escape hatch for call sites not yet moved to accessors: they keep working on the
    /// same file, and never run at the same time as a write block. `body` receives the `sqlite3 *`
    /// handle (import your SQLite module, such as a system-library target on `sqlite3`, to call
    /// the C API); in a store opened with `readOnly`, the connection is read-only too. The rules:
    ///
    /// - Use the handle only inside `body`; never close it.
    /// - Finish every transaction you begin: a transaction left open is rolled back and the call
    ///   throws `misuse`. If `body` throws, an open transaction is rolled back too.
    /// - Finalize (or at least reset) every statement you prepare before returning.
    /// - Schema changes you make are seen by the next read or write block. Leave the
    ///   `persist_columns` table, the WAL journal mode and the connection's settings alone.
    /// - Do not call the store from inside `body`: a write would be refused as reentrant.
    ///
    /// ```swift
    /// try store.withRawHandle { db in
    ///     sqlite3_exec(db, "UPDATE counters SET hits = hits + 1 WHERE name = 'home'", nil, nil, nil)
    /// }
    /// ```
    ///
    /// - Throws: `misuse` inside one of the store's blocks or when the store is not open; what
    ///   `body` throws.
    public func withRawHandle<T>(_ body: (RawHandle) throws -> T) throws -> T {
        try scheduler.performExclusive(named: "withRawHandle") { try engine.withRawHandle(body) }
    }

    /// The tables and views of the database that are not item types, with the reason for each:
    /// views, virtual and shadow tables, SQLite's own tables, and tables without a usable key.
    ///
    /// ```swift
    /// for table in try store.skippedTables() { print("not adopted:", table) }
    /// ```
    public func skippedTables() throws -> [SkippedTable] {
        try engine.skippedTables()
    }

    /// How many SQLite connections stores have open in this process, for tests that look for leaks.
    package static var openConnectionCount: Int { SQLiteConnection.openCount.value }

    /// The suffix of the write-ahead log SQLite keeps beside a database in WAL mode.
    package static let logSuffix = "-wal"
    /// The suffix of the write-ahead log's shared-memory index.
    package static let sharedMemorySuffix = "-shm"
    /// The files SQLite keeps beside a database, as suffixes of its path: the write-ahead log,
    /// its shared-memory index and the rollback journal.
    package static let companionSuffixes = [logSuffix, sharedMemorySuffix, "-journal"]

    /// Deletes a store's files: the database at `path` with its WAL, shared-memory and rollback
    /// journal files (beside the file a symbolic link leads to, which is what is deleted, as SQLite
    /// keeps them there; the link stays). Closing a store never does this. Call it only when no
    /// store or other process has the database open.
    ///
    /// ```swift
    /// try store.tearDown()
    /// try SQLiteDataStore.deleteFiles(atPath: store.path)
    /// ```
    ///
    /// - Throws: `invalidArgument` when `path` is a directory (nothing is deleted); `io` when a
    ///   file exists but cannot be removed. A missing file is not an error.
    public static func deleteFiles(atPath path: String) throws {
        let database = realpath(path, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        } ?? path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: database, isDirectory: &isDirectory), isDirectory.boolValue {
            throw DataStoreError(.invalidArgument, "\(path) is a directory, not an SQLite database; give the path of "
                + "the database file itself. Nothing was deleted", path: path)
        }
        // A link that leads nowhere names no database; it stays, like every link.
        var link = stat()
        let files = database == path && lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
            ? companionSuffixes : [""] + companionSuffixes
        for file in files.map({ database + $0 }) where unlink(file) != 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { continue }
            let reason = String(cString: strerror(code))
            throw DataStoreError(.io, "could not remove \(file) of the SQLite database at \(path): \(reason)",
                                 path: path, engineCode: Int(code), engineMessage: reason)
        }
    }
}
