import Persist
import PersistSQL

/// The reads of one transaction on one connection, against the schema of that transaction.
///
/// A read block gets one on a reader connection; a write block gets an ``SQLiteWriter`` (a
/// subclass) on the writer connection, whose reads see its own changes.
class SQLiteReader: StoreReader {
    let connection: SQLiteConnection
    /// The schema the transaction sees (a write block's own changes included). A read block's
    /// starts as the one its connection last read, not yet checked: reads go through
    /// ``checkedSchema``.
    var schema: DatabaseSchema {
        didSet { schemaChangeCount &+= 1 }
    }
    /// How many times ``schema`` changed in this transaction, so that what was resolved against it
    /// can be kept until it changes.
    private(set) var schemaChangeCount = 0

    /// A read block's transaction; `nil` in a write block.
    private let transaction: ReadTransaction?
    /// Whether ``schema`` is the one ``transaction`` reads, once pinned.
    private var isPinned = false

    /// - Parameter transaction: a read block's transaction, which `schema` is checked against.
    init(connection: SQLiteConnection, schema: DatabaseSchema, transaction: ReadTransaction? = nil) {
        self.connection = connection
        self.schema = schema
        self.transaction = transaction
    }

    /// The schema, once the block's transaction is pinned: every read but a first lookup by
    /// identifier starts with this, so that it runs in the block's snapshot against its schema.
    var checkedSchema: DatabaseSchema {
        get throws {
            if !isPinned, let transaction {
                if let changed = try transaction.pinnedSchema() { schema = changed }
                isPinned = true
            }
            return schema
        }
    }

    var path: String { connection.path }

    /// "Reading items of type "Restaurant"", for messages.
    static func reading(_ itemType: String) -> String {
        "Reading items of type \(String(reflecting: itemType))"
    }

    func item(ofType itemType: String, id: ItemID) throws -> Item? {
        try withRow(ofType: itemType, id: id) { decoder, statement in try decoder.item(statement) }
    }

    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {
        try forEachRow(matching: request, start: { ($0, $1) }) { decoder, statement in try body(decoder.item(statement)) }
    }

    /// Calls `body` with the statement positioned at the row of `itemType` with identifier `id`;
    /// `nil` when there is none.
    func withRow<T>(ofType itemType: String, id: ItemID, _ body: (RowDecoder, SQLiteStatement) throws -> T) throws -> T? {
        if !isPinned, let transaction, transaction.canBeginWithLookup,
           let table = schema.tables[itemType], let key = table.keyParameters(for: id) {
            switch try transaction.begin(withLookup: table.selectByKey, key, operation: Self.reading(itemType)) {
            case .row(let statement):
                return try transaction.readingLookup { try body(RowDecoder(table: table, path: path), statement) }
            case .absent:
                return nil
            case .again:
                break
            }
        }
        guard let table = try checkedSchema.tables[itemType], let bindings = table.keyBindings(for: id) else { return nil }
        return try connection.withStatement(table.selectByKey, bindings) { statement in
            try statement.step(Self.reading(itemType)) ? body(RowDecoder(table: table, path: path), statement) : nil
        }
    }

    /// Calls `body` at each row the request selects, until it returns `false`, with what `start`
    /// made of the row decoder and the statement before the first row.
    func forEachRow<Reader>(
        matching request: DataStoreRequest, start: (RowDecoder, SQLiteStatement) -> Reader, _ body: (Reader) throws -> Bool
    ) throws {
        guard let table = try checkedSchema.tables[request.itemType] else { return }
        let query = try SQLiteDialect.select(request, from: table)
        guard !query.matchesNothing else { return }
        let decoder = RowDecoder(table: table, path: path)
        try connection.withStatement(query.sql, query.parameters) { statement in
            let reader = start(decoder, statement)
            while try statement.step(Self.reading(request.itemType)) {
                if try !body(reader) { return }
            }
        }
    }

    func countItems(matching request: DataStoreRequest) throws -> Int {
        guard let table = try checkedSchema.tables[request.itemType] else { return 0 }
        let query = try SQLiteDialect.count(request, from: table)
        guard !query.matchesNothing else { return 0 }
        return Int(try connection.integer(query.sql, query.parameters, operation: "Counting items of type \(String(reflecting: request.itemType))"))
    }

    func itemTypes() throws -> [String] {
        var names: [String] = []
        for table in try checkedSchema.tables.values {
            if try connection.integer(table.exists, operation: Self.reading(table.name)) != 0 {
                names.append(table.name)
            }
        }
        return names.sorted(by: ByteOrder.precedes)
    }
}
