import Persist
import PersistSQL

/// The reads of one block, against the schema that block sees.
///
/// A read block gets one on a reader session (a `REPEATABLE READ READ ONLY` snapshot); a write
/// block gets a ``PostgresWriter`` (a subclass) on the writer session, whose reads see its own
/// changes.
class PostgresReader: StoreReader {
    let transaction: BlockTransaction
    /// The schema the block uses; read again when another connection changed it.
    var schema: StoreSchema
    let environment: PostgresEnvironment

    /// Requests whose result holds at most this many rows run as one statement; larger ones
    /// stream through a cursor, this many rows at a time.
    static let batchSize = 1000

    init(transaction: BlockTransaction, schema: StoreSchema, environment: PostgresEnvironment) {
        self.transaction = transaction
        self.schema = schema
        self.environment = environment
    }

    var location: String { environment.location }

    static func reading(_ itemType: String) -> String {
        "Reading items of type \(String(reflecting: itemType))"
    }

    // MARK: StoreReader

    func item(ofType itemType: String, id: ItemID) throws -> Item? {
        try withRow(ofType: itemType, id: id) { decoder, row in try decoder.item(row) }
    }

    /// Calls `body` with the decoder and index of the row of `itemType` with identifier `id`;
    /// `nil` when there is none.
    func withRow<T>(ofType itemType: String, id: ItemID, _ body: (RowDecoder, Int) throws -> T) throws -> T? {
        let found: (RowDecoder, Int)? = try withCurrentSchema(itemType) { table in
            guard let key = table.keyParameter(id) else { return nil }
            let result = try transaction.run([PGCommand(table.selectByKey, [key], prepared: true,
                                                        operation: table.readOperation)])[0]
            let decoder = try RowDecoder(table: table, result: result, location: location)
            // A char(n) key compares ignoring trailing spaces: keep only the very identifier.
            for row in 0..<decoder.rowCount where try decoder.identifier(row) == id {
                return (decoder, row)
            }
            return nil
        } ?? nil
        guard let (decoder, row) = found else { return nil }
        return try body(decoder, row)
    }

    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {
        try forEachRow(matching: request, items: body) { decoder, row in try body(decoder.item(row)) }
    }

    /// Calls `rows` with the decoder and index of each row the request selects, in order, until it
    /// returns `false`; when PostgreSQL cannot evaluate the request exactly, the store does, and
    /// calls `items` with each selected item instead.
    func forEachRow(matching request: DataStoreRequest, items: (Item) throws -> Bool,
                    rows: (RowDecoder, Int) throws -> Bool) throws {
        let selected: SelectedRows? = try withCurrentSchema(request.itemType) { table in
            guard let query = PostgresDialect.select(request, from: table) else {
                // PostgreSQL cannot evaluate it exactly: the store does, over every item.
                var all: [Item] = []
                try stream(PostgresDialect.all(from: table), table, operation: table.readOperation) {
                    all.append($0)
                    return true
                }
                return .items(request.apply(to: all))
            }
            guard !query.matchesNothing else { return .items([]) }
            if let limit = request.limit, limit <= Self.batchSize {
                let result = try transaction.run([PGCommand(query.sql, query.parameters, prepared: true,
                                                            operation: table.readOperation)])[0]
                return .rows(try RowDecoder(table: table, result: result, location: location))
            }
            try streamRows(query, table, operation: table.readOperation, rows)
            return nil
        } ?? nil
        switch selected {
        case nil:
            return
        case .items(let selectedItems):
            transaction.hasObservedResults = true
            for item in selectedItems where try !items(item) { return }
        case .rows(let decoder):
            transaction.hasObservedResults = true
            for row in 0..<decoder.rowCount where try !rows(decoder, row) { return }
        }
    }

    func countItems(matching request: DataStoreRequest) throws -> Int {
        try withCurrentSchema(request.itemType) { table in
            guard let query = PostgresDialect.count(request, from: table) else {
                var count = 0
                try forEachItem(matching: request) { _ in
                    count += 1
                    return true
                }
                return count
            }
            guard !query.matchesNothing else { return 0 }
            let operation = "Counting items of type \(String(reflecting: request.itemType))"
            // The empty SELECT * shows the table's columns now: a count must not use a stale schema.
            let results = try transaction.run([
                PGCommand("SELECT \(table.selectList) FROM \(table.qualified) LIMIT 0", prepared: true, operation: operation),
                PGCommand(query.sql, query.parameters, prepared: true, operation: operation),
            ])
            _ = try RowDecoder(table: table, result: results[0], location: location)
            return Int(try results[1].int64(0, 0) ?? 0)
        } ?? 0
    }

    func itemTypes() throws -> [String] {
        try refreshIfChanged()
        let tables = schema.tables.values.sorted { ByteOrder.precedes($0.itemType, $1.itemType) }
        guard !tables.isEmpty else { return [] }
        let results = try transaction.run(tables.map {
            PGCommand($0.exists, prepared: true, operation: Self.reading($0.itemType))
        })
        var names: [String] = []
        for (table, result) in zip(tables, results) where try result.bool(0, 0) == true {
            names.append(table.itemType)
        }
        return names
    }

    // MARK: Streaming

    /// Runs `query` through a cursor, `batchSize` rows at a time, calling `body` for each item
    /// until it returns `false`. Other statements may run between batches (the body's own).
    func stream(_ query: CompiledQuery, _ table: TableSchema, operation: String, _ body: (Item) throws -> Bool) throws {
        try streamRows(query, table, operation: operation) { decoder, row in try body(decoder.item(row)) }
    }

    /// Runs `query` through a cursor, `batchSize` rows at a time, calling `body` with each row's
    /// decoder and index until it returns `false`.
    func streamRows(_ query: CompiledQuery, _ table: TableSchema, operation: String,
                    _ body: (RowDecoder, Int) throws -> Bool) throws {
        let cursor = SQLName.quoted(transaction.session.nextCursorName())
        let fetch = PGCommand("FETCH FORWARD \(Self.batchSize) FROM \(cursor)", operation: operation)
        var results = try transaction.run([
            PGCommand("DECLARE \(cursor) NO SCROLL CURSOR FOR \(query.sql)", query.parameters, operation: operation),
            fetch,
        ])
        defer { transaction.session.connection.deferCommands([PGCommand("CLOSE \(cursor)", operation: operation)]) }
        while true {
            let decoder = try RowDecoder(table: table, result: results[results.count - 1], location: location)
            for row in 0..<decoder.rowCount {
                transaction.hasObservedResults = true
                guard try body(decoder, row) else { return }
            }
            guard decoder.rowCount == Self.batchSize else { return }
            results = try transaction.run([fetch])
        }
    }

    // MARK: Schema

    /// Runs `body` with the table of `itemType`; `nil` when there is none. When the table is not
    /// in the cached schema, or a statement finds it changed, the schema is read again (in this
    /// block's snapshot) and `body` runs again.
    func withCurrentSchema<T>(_ itemType: String, _ body: (TableSchema) throws -> T) throws -> T? {
        guard let table = schema.tables[itemType] else {
            guard try refreshIfChanged(), let table = schema.tables[itemType] else { return nil }
            return try body(table)
        }
        do {
            return try body(table)
        } catch is StaleSchema {
            // The result shows columns another connection added since this block's snapshot,
            // whose catalog does not list them yet: a block that has handed out nothing starts over
            // in a snapshot that does.
            if !transaction.hasObservedResults && !(self is PostgresWriter) { try transaction.restart() }
            try reloadSchema()
        } catch let error as DataStoreError where Self.isStaleSchemaError(error) && !(self is PostgresWriter) {
            // Other SQL dropped or altered the table since the schema was read: a block that has
            // handed out nothing starts over; one that has cannot, and must be retried whole.
            guard !transaction.hasObservedResults else { throw changedWhileRead(table, error) }
            try transaction.restart()
            try reloadSchema()
        }
        guard let table = schema.tables[itemType] else { return nil }
        do {
            return try body(table)
        } catch is StaleSchema {
            throw changedWhileRead(table, nil)
        }
    }

    /// The error of a read block that met a table other SQL changed or dropped after the block
    /// handed out results, with the server's error when there was one.
    private func changedWhileRead(_ table: TableSchema, _ serverError: DataStoreError?) -> DataStoreError {
        DataStoreError(
            .io, "the columns of table \(table.qualified) in PostgreSQL at \(location) changed while they were "
                + "read, or have types the store did not expect, or the table was dropped"
                + (serverError.map { " (\($0.engineMessage ?? $0.message))" } ?? "") + "; retry the block",
            path: location, engineCode: serverError?.engineCode, engineMessage: serverError?.engineMessage)
    }

    /// Reads the schema again if the catalog's fingerprint differs from the cached schema's;
    /// `true` when it did.
    @discardableResult
    func refreshIfChanged() throws -> Bool {
        let result = try transaction.run([PGCommand(SchemaFingerprint.query, [.text(schema.name)], prepared: true,
                                                    operation: "Reading the schema")])[0]
        let fingerprint = SchemaFingerprint(relations: try result.int64(0, 0) ?? 0, transactionSum: try result.int64(0, 1) ?? 0)
        guard fingerprint != schema.fingerprint else { return false }
        try reloadSchema()
        return true
    }

    /// Reads the schema in this block's transaction.
    func reloadSchema() throws {
        schema = try environment.loader { try self.transaction.run($0) }.load()
        environment.schemaWasRead(schema, byWriter: self is PostgresWriter)
    }

    /// Errors that say a statement was written for another version of the schema.
    static func isStaleSchemaError(_ error: DataStoreError) -> Bool {
        guard let code = error.engineCode, let state = PostgresSQLState(engineCode: code) else { return false }
        return ["42P01", "42703", "42883", "42804", "0A000", "26000"].contains(state.code)
    }
}

/// What a request selected in one statement: decoded rows, or the items the store selected itself.
private enum SelectedRows {
    case rows(RowDecoder)
    case items([Item])
}
