import Persist
import PersistSQL

/// Creates tables and columns as items need them, inside the write transaction, and records the
/// kind of every column it creates in the metadata table.
struct SchemaEditor {
    let connection: SQLiteConnection

    private static let creating = "Creating a table or column"

    /// Creates the table for `itemType`: a rowid table whose ``DatabaseSchema/createdKeyColumn``
    /// holds the identifier, with a unique index on it (see the "SQLite storage format" article).
    /// With `deferKeyIndex`, the index is left for ``createKeyIndex(of:in:path:)`` after a bulk load:
    /// until then, nothing checks that identifiers are unique and lookups scan the table.
    func createTable(_ itemType: String, columns: [ColumnSchema], deferKeyIndex: Bool = false,
                     in schema: inout DatabaseSchema) throws -> TableSchema {
        let key = DatabaseSchema.createdKeyColumn
        let definitions = ([SQLName.quoted(key) + " NOT NULL"] + columns.map { Self.definition($0, strict: false) })
            .joined(separator: ", ")
        try connection.executeOnce("CREATE TABLE \(SQLName.quoted(itemType)) (\(definitions))", operation: Self.creating)
        if schema.hasMetadataTable {
            // A row left by a dropped table of the same name must not tag the new table's keys.
            try connection.execute(
                "DELETE FROM \(SQLName.quoted(DatabaseSchema.metadataTable)) WHERE table_name = ?1 AND column_name = ?2",
                [.text(itemType), .text(key)], operation: Self.creating)
        }
        try record(itemType, columns, in: &schema)
        var taken = [SQLName.folded(key): key]
        for column in columns { taken[SQLName.folded(column.name)] = column.name }
        let table = TableSchema(name: itemType, key: .column(name: key, affinity: .none, needsBinaryCollation: false),
                                columns: columns, takenNames: taken, isStrict: false)
        schema.tables[itemType] = table
        schema.takenNames[SQLName.folded(itemType)] = itemType
        let index = DatabaseSchema.keyIndexName(for: itemType)
        schema.takenNames[SQLName.folded(index)] = index
        if !deferKeyIndex { try createKeyIndex(of: table, in: schema, path: connection.path) }
        return table
    }

    /// Creates the unique index on the key column of a table the store created.
    ///
    /// - Throws: `alreadyExists` naming up to ten identifiers that more than one row holds.
    func createKeyIndex(of table: TableSchema, in schema: DatabaseSchema, path: String) throws {
        let key = SQLName.quoted(DatabaseSchema.createdKeyColumn)
        let index = SQLName.quoted(DatabaseSchema.keyIndexName(for: table.name))
        do {
            try connection.executeOnce("CREATE UNIQUE INDEX \(index) ON \(table.quoted) (\(key))", operation: Self.creating)
        } catch let error as DataStoreError where error.code == .alreadyExists {
            var duplicates: [ItemReference] = []
            try connection.withStatement(
                "SELECT \(key) FROM \(table.quoted) GROUP BY \(key) HAVING count(*) > 1 LIMIT 10"
            ) { statement in
                while try statement.step(Self.creating) {
                    let id: ItemID
                    switch statement.storageClass(0) {
                    case .integer: id = .int(statement.int64(0))
                    case .text: id = .string(statement.text(0))
                    default:
                        let blob = statement.blob(0)
                        id = table.taggedKeys ? TaggedKeyCodec.identifier(ofBlob: blob) ?? .bytes(blob) : .bytes(blob)
                    }
                    duplicates.append(ItemReference(itemType: table.name, id: id))
                }
            }
            throw DataStoreError(
                .alreadyExists,
                "more than one item of type \(String(reflecting: table.name)) was written to the SQLite database at "
                    + "\(path) with the same identifier (\(duplicates.map(\.description).joined(separator: ", "))); "
                    + "nothing was committed",
                path: path, engineCode: error.engineCode, engineMessage: error.engineMessage, items: duplicates)
        }
    }

    /// Adds columns to an existing table.
    func addColumns(_ columns: [ColumnSchema], to table: TableSchema, in schema: inout DatabaseSchema) throws -> TableSchema {
        for column in columns {
            let definition = Self.definition(column, strict: table.isStrict)
            try connection.executeOnce("ALTER TABLE \(table.quoted) ADD COLUMN \(definition)", operation: Self.creating)
        }
        try record(table.name, columns, in: &schema)
        let extended = table.adding(columns)
        schema.tables[table.name] = extended
        return extended
    }

    /// The definition of a column the store creates: no declared type, so that SQLite keeps each
    /// value as bound, but `NUMERIC` for decimals, which legacy readers then read as numbers (see
    /// ``DecimalCodec``). A STRICT table needs a declared type and allows no NUMERIC: `ANY` keeps
    /// values exactly as given.
    static func definition(_ column: ColumnSchema, strict: Bool) -> String {
        if strict { return column.quoted + " ANY" }
        return column.storage == .typed(.decimal) ? column.quoted + " NUMERIC" : column.quoted
    }

    /// Makes every connection, in this process or another, load the schema again: for a change of
    /// the schema as the store reads it that is a change of rows (in its own tables) rather than of
    /// SQL, which SQLite's schema version would not show. Connections cache schemas by that
    /// version, so it is moved on by one, as any `CREATE` or `ALTER` would move it.
    func markSchemaChanged(operation: String) throws {
        let version = try connection.integer("PRAGMA schema_version", operation: operation)
        try connection.executeOnce("PRAGMA schema_version = \(version + 1)", operation: operation)
    }

    /// Records `kind` for declared columns of a recreated table (dates as ISO text, see ``DateText``).
    func recordKind(_ kind: ColumnKind, of columns: [String], in table: String, schema: inout DatabaseSchema) throws {
        try record(table, columns.map { ColumnSchema(name: $0, storage: .typed(kind)) }, in: &schema)
    }

    func record(_ table: String, _ columns: [ColumnSchema], in schema: inout DatabaseSchema) throws {
        guard !columns.isEmpty else { return }
        let metadata = try metadataTable(in: &schema)
        for column in columns {
            let kind: String
            switch column.storage {
            case .typed(let typed): kind = typed.rawValue
            case .mixed: kind = ColumnKind.mixedName
            case ColumnSchema.jsonRecord: kind = JSONText.kindName
            case .legacy: continue
            }
            try connection.execute(
                "INSERT OR REPLACE INTO \(metadata) (table_name, column_name, kind) VALUES (?1, ?2, ?3)",
                [.text(table), .text(column.name), .text(kind)], operation: Self.creating)
        }
    }

    /// The metadata table, quoted; created first if the database lacks it.
    func metadataTable(in schema: inout DatabaseSchema) throws -> String {
        let metadata = SQLName.quoted(DatabaseSchema.metadataTable)
        if !schema.hasMetadataTable {
            try connection.executeOnce(
                "CREATE TABLE IF NOT EXISTS \(metadata) (table_name TEXT NOT NULL, column_name TEXT NOT NULL, "
                    + "kind TEXT NOT NULL, PRIMARY KEY (table_name, column_name)) WITHOUT ROWID",
                operation: Self.creating)
            schema.hasMetadataTable = true
            schema.takenNames[DatabaseSchema.metadataTable] = DatabaseSchema.metadataTable
        }
        return metadata
    }
}
