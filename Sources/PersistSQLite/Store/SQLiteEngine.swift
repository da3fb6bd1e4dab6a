internal import CSQLite
import Foundation
import Logging
import Persist
import PersistSQL

/// The engine of ``SQLiteDataStore``: one writer connection in WAL mode, a pool of read-only
/// reader connections, and the schema each transaction sees.
final class SQLiteEngine: BulkLoadingEngine {
    /// The writer connection while open. It is used only on the store's write queue (writes, the
    /// escape hatch, open and close, which the scheduler all runs there).
    private let openWriter = Locked<SQLiteConnection?>(nil)

    let location: String
    let options: SQLiteDataStore.Options
    /// Whether the database is a private scratch file (the in-memory variant).
    private let isScratch: Bool
    /// Whether the database is a new file built privately (see ``SQLiteDataStore/buildingPrivateFile(at:options:)``).
    private let buildsPrivateFile: Bool
    private let pool: ReaderPool<SQLiteConnection>
    private let schemas = SQLiteSchemaCache(capacity: 4)
    /// While live queries watch for other processes' commits: the writer's last `data_version`
    /// and the file's identity. Used only on the write queue.
    let changeWatch = Locked<SQLiteChangeWatch?>(nil)
    /// The database file's absolute path and its device and inode when the store opened it (none
    /// for a scratch file): a write block commits only while the path still names that file.
    let openedFile = Locked<(path: String, identity: FileIdentity)?>(nil)
    /// The name SQLite opens and its extra flag, made absolute when the store opens: reader
    /// connections opened later name the writer's file, whatever the working directory is by then.
    private let openName: Locked<(name: String, flags: Int32)>

    init(path: String, options: SQLiteDataStore.Options, isScratch: Bool, buildsPrivateFile: Bool = false) {
        location = path
        self.options = options
        self.isScratch = isScratch
        self.buildsPrivateFile = buildsPrivateFile
        let timeout = options.busyTimeout
        let openName = Locked(Self.fileName(LiteralPath.absolute(path), options: options))
        self.openName = openName
        pool = ReaderPool(capacity: options.readerPoolSize, location: path, engine: "SQLite") {
            let (name, uri) = openName.value
            return try SQLiteConnection.open(path: name, displayPath: path, flags: SQLITE_OPEN_READONLY | uri,
                                             busyTimeout: timeout)
        }
    }

    deinit {
        guard isScratch else { return }
        // Close first, so that no connection writes to the files after they are removed.
        for connection in pool.close() { connection.close() }
        openWriter.value?.close()
        for suffix in [""] + SQLiteDataStore.companionSuffixes {
            try? FileManager.default.removeItem(atPath: location + suffix)
        }
    }

    private var logger: Logger { options.logger }

    /// The name to open and the extra flag for the store's path made absolute (``LiteralPath``):
    /// that path, or for a read-only store on an unchanging file, an `immutable` URI of it (with
    /// `%`, `?` and `#` escaped).
    ///
    /// The path is taken literally, as every other store takes it: `:memory:`, `file:…` (SQLite is
    /// built to read URIs) and the empty path would otherwise each give every connection a private
    /// database, whose writes no read ever sees.
    private static func fileName(_ absolute: String, options: SQLiteDataStore.Options) -> (name: String, flags: Int32) {
        guard options.readOnly, options.readsUnchangingFile else { return (absolute, 0) }
        var escaped = ""
        for character in absolute.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return ("file://" + escaped + "?immutable=1", SQLITE_OPEN_URI)
    }

    // MARK: Lifecycle

    func open() throws {
        try options.validate(path: location)
        schemas.removeAll()
        let readOnly = options.readOnly && !isScratch
        let flags = readOnly
            ? SQLITE_OPEN_READONLY
            : SQLITE_OPEN_READWRITE | (options.createIfMissing || isScratch ? SQLITE_OPEN_CREATE : 0)
        // Absolute once, here: reader connections opened later and the replaced-file checks name
        // this file, whatever the working directory is by then.
        let absolute = LiteralPath.absolute(location)
        let (name, uri) = Self.fileName(absolute, options: options)
        openName.withLock { $0 = (name, uri) }
        let connection = try SQLiteConnection.open(path: name, displayPath: location, flags: flags | uri,
                                                   busyTimeout: options.busyTimeout)
        do {
            if !readOnly && connection.isReadOnly {
                throw DataStoreError(
                    .readOnly,
                    "the SQLite database at \(location) can only be opened read-only (the file or its directory is "
                        + "not writable); open it with SQLiteDataStore.Options(readOnly: true), or fix its permissions",
                    path: location, engineCode: Int(SQLITE_READONLY),
                    engineMessage: String(cString: sqlite3_errstr(SQLITE_READONLY)))
            }
            let schema = try inspect(connection)
            if !readOnly { try configure(connection) }
            report(schema)
        } catch {
            connection.close()
            throw error
        }
        openWriter.withLock { $0 = connection }
        openedFile.withLock { $0 = isScratch ? nil : FileIdentity.existing(absolute).map { (absolute, $0) } }
        pool.open()
    }

    /// Throws `notFound` when the store's path no longer names the file it opened.
    private func checkStillInPlace() throws {
        guard let opened = openedFile.withLock({ $0 }) else { return }
        try opened.identity.checkStillAt(opened.path, file: "the SQLite database", location: location)
    }

    /// Reads the schema in a read transaction: this is where a file that is not a database, or a
    /// damaged one, is found, before anything is written.
    private func inspect(_ connection: SQLiteConnection) throws -> DatabaseSchema {
        try connection.execute("BEGIN", operation: "Opening the database")
        do {
            let schema = try schema(on: connection)
            let encoding = try connection.text("PRAGMA encoding", operation: "Opening the database") ?? "UTF-8"
            guard encoding == "UTF-8" else {
                throw DataStoreError(
                    .unsupported,
                    "the SQLite database at \(location) stores text as \(encoding); Persist needs UTF-8, because "
                        + "strings compare by their UTF-8 bytes. Copy the data into a new UTF-8 database first",
                    path: location)
            }
            try connection.execute("COMMIT", operation: "Opening the database")
            return schema
        } catch {
            if connection.isInTransaction { try? connection.execute("ROLLBACK", operation: "Opening the database") }
            throw error
        }
    }

    /// Switches the file to WAL mode and sets the durability.
    private func configure(_ connection: SQLiteConnection) throws {
        // Foreign keys hold for Persist's writes, whether or not the file's other programs turn
        // them on (each write block defers them to its end, see `transaction`).
        try connection.executeOnce("PRAGMA foreign_keys = ON", operation: "Turning on foreign keys")
        if buildsPrivateFile {
            // Nobody else reads the file while it is built: no log, no syncs.
            _ = try connection.text("PRAGMA journal_mode = MEMORY", operation: "Setting the journal mode")
            try connection.executeOnce("PRAGMA synchronous = OFF", operation: "Setting the durability")
            return
        }
        let mode: String
        if options.keepsJournalMode {
            mode = try connection.text("PRAGMA journal_mode", operation: "Reading the journal mode") ?? ""
        } else {
            mode = try switchToWAL(connection, busyTimeout: options.busyTimeout)
            if mode.lowercased() != "wal" {
                logger.warning("the SQLite database stays in \(mode) journal mode, so reads and writes wait for each other",
                               metadata: ["store": .string(location)])
            }
        }
        let synchronous = isScratch ? "OFF" : (options.durability == .full ? "FULL" : "NORMAL")
        try connection.executeOnce("PRAGMA synchronous = \(synchronous)", operation: "Setting the durability")
        guard mode.lowercased() == "wal" else { return }
        // Open the WAL on the writer now (a read transaction does): the writer closes last, and only
        // a connection that has the WAL open checkpoints it and removes the -wal and -shm files. A
        // store that never writes would otherwise leave them behind, created by a read-only reader.
        try connection.execute("BEGIN", operation: "Opening the write-ahead log")
        do {
            _ = try connection.integer("PRAGMA schema_version", operation: "Opening the write-ahead log")
            try connection.execute("COMMIT", operation: "Opening the write-ahead log")
        } catch {
            if connection.isInTransaction { try? connection.execute("ROLLBACK", operation: "Opening the write-ahead log") }
            throw error
        }
    }

    private func report(_ schema: DatabaseSchema) {
        let metadata: Logger.Metadata = ["store": .string(location)]
        for table in schema.tables.values.sorted(by: { ByteOrder.precedes($0.name, $1.name) })
        where table.key != .column(name: DatabaseSchema.createdKeyColumn, affinity: .none, needsBinaryCollation: false) {
            logger.debug("adopted table \(String(reflecting: table.name)) as an item type keyed by \(table.key.sql)",
                        metadata: metadata)
        }
        for skipped in schema.skipped {
            logger.debug("skipped \(String(reflecting: skipped.name)): \(skipped.reason)", metadata: metadata)
        }
    }

    func close() throws {
        for connection in pool.close() { connection.close() }
        let connection = openWriter.withLock { writer in
            defer { writer = nil }
            return writer
        }
        defer {
            connection?.close()
            schemas.removeAll()
        }
        if buildsPrivateFile, !options.readOnly, let connection {
            // The finished file is in the store's own mode, as if it had been written normally.
            let mode = try connection.text("PRAGMA journal_mode = WAL", operation: "Switching to WAL mode") ?? ""
            guard mode.lowercased() == "wal" else {
                throw DataStoreError(.io, "the SQLite database at \(location) could not be switched to WAL mode "
                                        + "(it stayed in \(mode) mode)", path: location)
            }
        }
    }

    func writerConnection() throws -> SQLiteConnection {
        guard let connection = openWriter.value else {
            throw DataStoreError(.misuse, "the SQLite store at \(location) is not open; call setup() first",
                                 path: location)
        }
        return connection
    }

    // MARK: Transactions

    /// The schema of the connection's current transaction, loaded only when its version changed.
    private func schema(on connection: SQLiteConnection) throws -> DatabaseSchema {
        try schemas.schema(on: connection, version: connection.integer("PRAGMA schema_version", operation: "Reading the schema"))
    }

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        let connection = try pool.checkout()
        var reusable = true
        defer { pool.checkin(connection, reusable: reusable)?.close() }
        let transaction = ReadTransaction(connection: connection, schemas: schemas)
        do {
            defer { transaction.end() }
            let schema = try transaction.startingSchema()
            return try body(SQLiteReader(connection: connection, schema: schema, transaction: transaction))
        } catch {
            reusable = rollback(connection)
            throw error
        }
    }

    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T {
        try transaction(bulkLoad: false, body)
    }

    private func transaction<T>(bulkLoad: Bool, _ body: (SQLiteWriter) throws -> (value: T, commit: Bool)) throws -> T {
        if options.readOnly && !isScratch {
            throw DataStoreError(
                .readOnly, "the SQLite store at \(location) was opened read-only; open it without "
                    + "Options.readOnly to write", path: location)
        }
        let connection = try writerConnection()
        try connection.execute("BEGIN IMMEDIATE", operation: "Starting a write transaction")
        do {
            let writer = SQLiteWriter(connection: connection, schema: try schema(on: connection),
                                      bulkLoad: bulkLoad ? SQLiteBulkLoad() : nil)
            // Every foreign key is checked when the block ends, as Persist checks its relations:
            // the order of the block's writes does not matter. Only where the database has
            // foreign keys: setting the pragma expires every prepared statement of the connection,
            // which then parses its SQL again (Persist's own foreign keys are deferred anyway).
            if writer.schema.hasForeignKeys {
                try connection.execute("PRAGMA defer_foreign_keys = ON", operation: "Starting a write transaction")
            }
            let (value, commit) = try body(writer)
            guard commit else {
                _ = rollback(connection)
                return value
            }
            // A table must never be committed without its key index.
            try writer.finishBulkLoad()
            let changedVersion = writer.schemaChanges.isEmpty
                ? nil : try connection.integer("PRAGMA schema_version", operation: "Reading the schema")
            try checkStillInPlace()
            try commitCheckingForeignKeys(writer)
            if let changedVersion {
                schemas.store(writer.schema, for: changedVersion)
                for change in writer.schemaChanges {
                    logger.debug("\(change)", metadata: ["store": .string(location)])
                }
            }
            return value
        } catch {
            _ = rollback(connection)
            throw error
        }
    }

    /// Commits the writer's transaction; a commit SQLite refuses for a foreign key becomes a
    /// `referenceViolation` naming the first row the block left broken (the transaction is still
    /// open then: the caller rolls it back).
    private func commitCheckingForeignKeys(_ writer: SQLiteWriter) throws {
        do {
            try writer.connection.execute("COMMIT", operation: "Committing a write block")
        } catch let error as DataStoreError where error.engineCode == SQLiteReader.foreignKeyConstraint
                    && writer.connection.isInTransaction {
            // What the last commit already broke (a legacy program may have left broken references),
            // read on a reader connection: the block's own breaks are the others.
            let committed = (try? read { reader in try (reader as? SQLiteReader)?.foreignKeyBreaks() ?? [] }) ?? []
            throw writer.foreignKeyViolation(error, committed: Set(committed))
        }
    }

    /// The page cache of a bulk load's transaction, in KiB. Rows are appended, so the cache
    /// barely matters for loading; it also bounds the memory SQLite sorts the key index in. Measured
    /// on 1,000,000 items: 4, 8 and 16 MiB took the same CPU time, for a peak of 43, 51 and 68 MiB.
    static let bulkLoadCacheKiB = 8_192

    /// A write transaction for loading: a larger page cache for its duration, and a writer whose
    /// new tables get their key index when the load finishes.
    func bulkWrite<T>(_ body: (any BulkLoadWriter) throws -> (value: T, commit: Bool)) throws -> T {
        let connection = try writerConnection()
        return try connection.withPragma("cache_size", setTo: { _ in -Int64(Self.bulkLoadCacheKiB) },
                                         operation: "Sizing the page cache") {
            try transaction(bulkLoad: true, body)
        }
    }

    /// Rolls back the open transaction, if any; `false` when the connection is left unusable.
    private func rollback(_ connection: SQLiteConnection) -> Bool {
        guard connection.isInTransaction else { return true }
        do {
            try connection.execute("ROLLBACK", operation: "Rolling back")
            return true
        } catch {
            logger.error("rolling back failed: \(error)", metadata: ["store": .string(location)])
            return false
        }
    }

    // MARK: Escape hatch and reports

    /// Runs `body` with the writer's `sqlite3` handle; the caller serializes it with the writes.
    func withRawHandle<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        let connection = try writerConnection()
        let handle = try connection.database
        let value: T
        do {
            value = try body(handle)
        } catch {
            _ = rollback(connection)
            throw error
        }
        if connection.isInTransaction {
            _ = rollback(connection)
            throw DataStoreError(
                .misuse, "a closure given the raw connection of the SQLite store at \(location) left a transaction "
                    + "open, which was rolled back; commit or roll back every transaction it begins",
                path: location)
        }
        return value
    }

    /// The tables and views that are not item types.
    func skippedTables() throws -> [SkippedTable] {
        try read { reader in try (reader as? SQLiteReader)?.checkedSchema.skipped ?? [] }
    }
}
