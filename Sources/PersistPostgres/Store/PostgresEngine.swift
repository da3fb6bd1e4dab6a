internal import CLibPQ
import Foundation
import Logging
import Persist
import PersistSQL

/// The engine of ``PostgresDataStore``: one writer session, a pool of reader sessions, and the
/// schema blocks start from.
///
/// Read blocks run in `REPEATABLE READ READ ONLY` snapshots on reader sessions. Write blocks run
/// on the writer session in `READ COMMITTED` transactions that first take a transaction-level
/// advisory lock keyed by the schema, so that every process writing through Persist to the same
/// schema writes one block at a time, and commit at the store's durability.
final class PostgresEngine: DataStoreEngine {
    let location: String
    let url: Result<PostgresURL, DataStoreError>
    let schemaName: String
    let options: PostgresDataStore.Options
    /// The writer session while open; used only on the store's write queue (writes, the escape
    /// hatch, open and close, which the scheduler all runs there).
    private let writerSlot = Locked<PostgresSession?>(nil)
    private let pool: PostgresReaderPool
    private let cache = SchemaCache<StoreSchema>(capacity: 1)
    /// Read blocks that have begun and not yet opened their snapshot.
    private let pendingSnapshots = PendingSnapshots()
    /// Whether the database's default collation compares bytes, found when opening.
    private let defaultCollationIsBytewise = Locked(true)

    /// The advisory lock every Persist write block on this schema takes: the 64-bit FNV-1a hash
    /// of `persist-postgres:` and the schema's name.
    let lockKey: Int64
    /// The channel every committing Persist write block that wrote something on this schema
    /// notifies: `persist_changes_` and the lock key in hexadecimal (a channel name must fit in 63
    /// bytes).
    let changeChannel: String
    /// The connection that listens on ``changeChannel`` while the store has live queries, kept
    /// (not listening) between them until the store closes; used only on the store's write queue.
    let changeListener = Locked(ChangeListener())

    init(url: Result<PostgresURL, DataStoreError>, options: PostgresDataStore.Options) {
        self.url = url
        self.options = options
        let schema: String
        switch url {
        case .success(let parsed):
            schema = options.schema ?? parsed.schema
            var location = parsed.location
            if schema != PostgresURL.defaultSchema {
                location += (location.contains("?") ? "&" : "?") + "schema=" + PercentEncoding.encode(schema)
            }
            self.location = location
        case .failure:
            schema = options.schema ?? PostgresURL.defaultSchema
            self.location = "a PostgreSQL store with a malformed URL"
        }
        schemaName = schema
        lockKey = Self.lockKey(forSchema: schema)
        changeChannel = Self.changeChannel(forSchema: schema)
        let location = location
        pool = PostgresReaderPool(capacity: options.readerConnections, location: location) {
            try PostgresSession.open(try url.get(), schema: schema, role: .reader, options: options)
        }
    }

    /// The key of the advisory lock write blocks take on `schema`.
    static func lockKey(forSchema schema: String) -> Int64 {
        Int64(bitPattern: StableName.value("persist-postgres:" + schema))
    }

    /// The channel committing write blocks notify on `schema`: `persist_changes_` and the lock key
    /// in hexadecimal.
    static func changeChannel(forSchema schema: String) -> String {
        "persist_changes_" + String(UInt64(bitPattern: lockKey(forSchema: schema)), radix: 16)
    }

    private var logger: Logger { options.logger }

    private func environment(generation: Int) -> PostgresEnvironment {
        PostgresEnvironment(location: location, schemaName: schemaName,
                            defaultCollationIsBytewise: defaultCollationIsBytewise.value, cache: cache,
                            generation: generation, logger: logger)
    }

    // MARK: Lifecycle

    func open() throws {
        let url = try self.url.get()
        try options.validate(location: location)
        let writer = try PostgresSession.open(url, schema: schemaName, role: .writer, options: options)
        do {
            try checkServer(writer)
            let schema = try loadSchema(on: writer)
            cache.publish(schema)
            report(schema)
        } catch {
            writer.close()
            throw error
        }
        writerSlot.withLock { $0 = writer }
        pool.open()
    }

    /// Checks what the store relies on: a UTF-8 database, and how its default collation compares.
    private func checkServer(_ session: PostgresSession) throws {
        let encoding = session.connection.parameterStatus("server_encoding") ?? "unknown"
        guard encoding == "UTF8" else {
            throw DataStoreError(
                .unsupported,
                "the database of the PostgreSQL store at \(location) stores text as \(encoding); Persist needs UTF8, "
                    + "because strings compare by their UTF-8 bytes. Create the database with ENCODING 'UTF8'",
                path: location)
        }
        let provider = session.connection.serverVersion >= 150_000 ? "datlocprovider::text" : "'c'::text"
        let result = try session.run([PGCommand(
            "SELECT datcollate::text, \(provider) FROM pg_catalog.pg_database WHERE datname = current_database()",
            operation: "Reading the database's collation")], synchronize: true)[0]
        let collation = try result.text(0, 0) ?? ""
        let isLibc = try result.text(0, 1) == "c"
        defaultCollationIsBytewise.withLock { $0 = isLibc && (collation == "C" || collation == "POSIX") }
    }

    private func report(_ schema: StoreSchema) {
        let metadata: Logger.Metadata = ["store": .string(location)]
        for table in schema.tables.values.sorted(by: { ByteOrder.precedes($0.name, $1.name) })
        where !table.isCreated {
            logger.debug("adopted table \(table.qualified) as an item type keyed by \(table.rowKey.described)", metadata: metadata)
        }
        for skipped in schema.skipped {
            logger.debug("skipped \(String(reflecting: skipped.name)): \(skipped.reason)", metadata: metadata)
        }
    }

    func close() throws {
        pool.close()
        let writer = writerSlot.withLock { slot in
            defer { slot = nil }
            return slot
        }
        writer?.close()
        closeChangeListener()
        cache.removeAll()
    }

    /// Whether the store is open (set up and not torn down).
    var isOpen: Bool { writerSlot.value != nil }

    private func writerSession() throws -> PostgresSession {
        guard let writer = writerSlot.value else {
            throw DataStoreError(.misuse, "the PostgreSQL store at \(location) is not open; call setup() first",
                                 path: location)
        }
        return writer
    }

    /// The cached schema, and forgets prepared statements made for an older one.
    private func schema(for session: PostgresSession) throws -> (StoreSchema, Int) {
        let (cached, generation) = cache.current
        guard let schema = cached else {
            throw DataStoreError(.misuse, "the PostgreSQL store at \(location) is not open; call setup() first",
                                 path: location)
        }
        if session.schemaGeneration != generation {
            if session.schemaGeneration >= 0 { session.connection.retireAllStatements() }
            session.schemaGeneration = generation
        }
        return (schema, generation)
    }

    // MARK: Transactions

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        let session = try pool.checkout()
        var reusable = false
        defer { pool.checkin(session, reusable: reusable && session.owning { !session.connection.isBroken }) }
        // The reader pool's flush may be sending the last read's COMMIT: work on the session owning it.
        let (schema, generation) = try session.owning {
            try session.prepareForBlock()
            return try self.schema(for: session)
        }
        let pending = pendingSnapshots
        let transaction = BlockTransaction(lazilyOn: session) { pending.remove(session) }
        // Registered once the transaction exists, so that a writer opening its snapshot is not undone.
        pending.add(session)
        let reader = PostgresReader(transaction: transaction, schema: schema, environment: environment(generation: generation))
        defer {
            pending.remove(session)
            transaction.endWithoutWaiting()
        }
        let value = try body(reader)
        reusable = true
        return value
    }

    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T {
        let session = try writerSession()
        try session.prepareForBlock()
        var (schema, generation) = try self.schema(for: session)
        let fingerprint = try begin(session)
        let transaction = BlockTransaction(begunOn: session)
        let environment = environment(generation: generation)
        let writer: PostgresWriter
        let value: T
        // Whether a failed COMMIT ended the transaction, which then needs no ROLLBACK.
        var ended = false
        do {
            if fingerprint != schema.fingerprint {
                // Another process, or other SQL, changed the schema: read it again, under the lock.
                schema = try environment.loader { try transaction.run($0) }.load()
                cache.publish(schema)
                (_, generation) = cache.current
                session.schemaGeneration = generation
                session.connection.retireAllStatements()
            }
            writer = PostgresWriter(transaction: transaction, schema: schema, environment: environment)
            let (result, commit) = try body(writer)
            value = result
            // A bulk load's last rows are stored (or refused) before the block commits.
            if commit { try writer.endBulkCopy() }
            if let failure = transaction.failure {
                throw DataStoreError(
                    .misuse,
                    "the write block on PostgreSQL at \(location) returned after PostgreSQL had aborted its transaction "
                        + "because of an error it caught (\(failure.message)); nothing was written. Let such errors "
                        + "end the block, or return .rollback",
                    path: location, engineCode: failure.engineCode, engineMessage: failure.engineMessage)
            }
            guard commit else {
                rollback(session)
                // Statements prepared for tables or columns the block made would outlive them.
                if !writer.schemaChanges.isEmpty { session.connection.retireAllStatements() }
                return value
            }
            try writer.materializeRelations()
            try writer.advanceSequences()
            if !writer.schemaChanges.isEmpty {
                let result = try transaction.run([PGCommand(SchemaFingerprint.query, [.text(schemaName)], prepared: true,
                                                            operation: "Reading the schema")])[0]
                writer.schema.fingerprint = SchemaFingerprint(relations: try result.int64(0, 0) ?? 0,
                                                              transactionSum: try result.int64(0, 1) ?? 0)
            }
            // No read block that began before this commit may see it.
            pendingSnapshots.openAll()
            // The notification is delivered to listeners when, and only if, the block commits, and
            // sent only when it wrote something: a transaction gets an identifier at its first write.
            do {
                _ = try session.run([
                    PGCommand("SELECT pg_catalog.pg_notify($1, '') WHERE pg_catalog.txid_current_if_assigned() IS NOT NULL",
                              [.text(changeChannel)], prepared: true, operation: "Committing a write block"),
                    PGCommand("COMMIT", prepared: true, operation: "Committing a write block"),
                ])
            } catch let error as DataStoreError {
                // A deferred constraint is checked only now. Its failed COMMIT ends the transaction
                // (the round trip has been read to its end, so the status is the server's); a
                // ROLLBACK would only draw the server's warning that none is in progress.
                ended = session.connection.transactionStatus == .idle
                throw CommitViolation.error(error, failure: session.connection.lastFailure, schema: writer.schema)
            }
        } catch {
            if !ended { rollback(session) }
            // Statements prepared for tables or columns the block made would outlive them, and a
            // later block making them again, in another shape, would meet stale plans.
            session.connection.retireAllStatements()
            throw error
        }
        if !writer.schemaChanges.isEmpty {
            cache.publish(writer.schema)
            session.schemaGeneration = cache.current.generation
            for change in writer.schemaChanges { logger.debug("\(change)", metadata: ["store": .string(location)]) }
        }
        return value
    }

    /// Begins a write transaction: `BEGIN`, the schema's advisory lock, and the catalog's
    /// fingerprint, in one round trip; once more on a new connection when the server had gone.
    private func begin(_ session: PostgresSession) throws -> SchemaFingerprint {
        func attempt() throws -> SchemaFingerprint {
            let begin = session.beginCommands()
            let results = try session.run(begin + [
                PGCommand("SELECT pg_advisory_xact_lock($1)", [.int8(lockKey)], prepared: true,
                          operation: "Waiting for the write lock of schema \(String(reflecting: schemaName))"),
                PGCommand(SchemaFingerprint.query, [.text(schemaName)], prepared: true, operation: "Reading the schema"),
            ])
            let fingerprint = results[results.count - 1]
            return SchemaFingerprint(relations: try fingerprint.int64(0, 0) ?? 0,
                                     transactionSum: try fingerprint.int64(0, 1) ?? 0)
        }
        do {
            do {
                return try attempt()
            } catch let error as DataStoreError where PostgresSession.isConnectionLoss(error) {
                try session.reconnect()
                return try attempt()
            }
        } catch {
            // The retry's failure too (a lock wait timing out on the new connection): no block
            // may begin inside a transaction left open and failed.
            rollback(session)
            throw error
        }
    }

    private func rollback(_ session: PostgresSession) {
        session.abortCopy(reason: "the write block was rolled back")
        guard !session.connection.isBroken else { return }
        do {
            _ = try session.run([PGCommand("ROLLBACK", prepared: true, operation: "Rolling back a write block")])
        } catch {
            logger.debug("rolling back failed: \(error)", metadata: ["store": .string(location)])
        }
    }

    // MARK: Escape hatch and reports

    /// Runs `body` with the writer's `PGconn`, out of pipeline mode; the caller serializes it with
    /// the write blocks.
    func withRawHandle<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        let session = try writerSession()
        try session.prepareForBlock()
        let connection = session.connection
        try connection.exitPipelineMode()
        defer {
            do {
                try connection.enterPipelineMode()
                try refreshAfterRawUse(session)
            } catch {
                logger.warning("after the escape hatch: \(error)", metadata: ["store": .string(location)])
            }
        }
        let handle = try connection.connection
        let value: T
        do {
            value = try body(handle)
        } catch {
            if connection.transactionStatus != .idle { _ = try? connection.executeScript("ROLLBACK") }
            throw error
        }
        if connection.isBroken {
            // The server went away, or ended the session, while the closure had it: what it had
            // not committed is not applied, and no transaction is left open anywhere.
            throw connection.connectionFailure("Running the closure given the raw connection")
        }
        if connection.transactionStatus != .idle {
            _ = try? connection.executeScript("ROLLBACK")
            throw DataStoreError(
                .misuse, "a closure given the raw connection of the PostgreSQL store at \(location) left a transaction "
                    + "open, which was rolled back; commit or roll back every transaction it begins",
                path: location)
        }
        return value
    }

    /// Reads the schema again when legacy code changed it through the escape hatch.
    private func refreshAfterRawUse(_ session: PostgresSession) throws {
        guard !session.connection.isBroken, let cached = cache.current.schema else { return }
        let result = try session.run([PGCommand(SchemaFingerprint.query, [.text(schemaName)], prepared: true,
                                                operation: "Reading the schema")], synchronize: true)[0]
        let fingerprint = SchemaFingerprint(relations: try result.int64(0, 0) ?? 0, transactionSum: try result.int64(0, 1) ?? 0)
        guard fingerprint != cached.fingerprint else { return }
        session.connection.retireAllStatements()
        cache.publish(try loadSchema(on: session))
    }

    /// Reads the schema on the writer's session outside a write block, in one `REPEATABLE READ`
    /// snapshot, so that what it reads is one state of the catalog even while another process
    /// commits a change (the session's own transactions are `READ COMMITTED`, where each
    /// statement would see what was committed when it began).
    private func loadSchema(on session: PostgresSession) throws -> StoreSchema {
        let operation = "Reading the schema"
        _ = try session.run([PGCommand("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", prepared: true,
                                       operation: operation)])
        let transaction = BlockTransaction(begunOn: session)
        do {
            let schema = try environment(generation: 0).loader { try transaction.run($0) }.load()
            _ = try session.run([PGCommand("COMMIT", prepared: true, operation: operation)])
            return schema
        } catch {
            rollback(session)
            throw error
        }
    }

    /// Whether the schema exists, as a read of it sees now.
    func schemaExists() throws -> Bool {
        try read { reader in
            guard let reader = reader as? PostgresReader else { return false }
            try reader.refreshIfChanged()
            return reader.schema.exists
        }
    }

    /// The identity of the database the store is in, the same through every host name, address or
    /// role that reaches it: the cluster's system identifier and the database's OID. `nil` when
    /// the server does not let this role read the identifier (`pg_control_system()` revoked).
    func databaseIdentity() throws -> String? {
        try read { reader in
            guard let reader = reader as? PostgresReader else { return nil }
            let results: [PGResult]
            do {
                results = try reader.transaction.run([PGCommand(
                    "SELECT system_identifier::text || '/' || (SELECT oid FROM pg_catalog.pg_database "
                        + "WHERE datname = current_database())::text FROM pg_catalog.pg_control_system()",
                    operation: "Reading the database's identity")])
            } catch let error as DataStoreError where error.engineCode == PostgresSQLState.insufficientPrivilege.engineCode {
                return nil
            }
            return try results.first?.text(0, 0)
        }
    }

    /// The relations of the schema that are not item types.
    func skippedTables() throws -> [SkippedTable] {
        try read { reader in
            guard let reader = reader as? PostgresReader else { return [] }
            try reader.refreshIfChanged()
            return reader.schema.skipped
        }
    }
}
