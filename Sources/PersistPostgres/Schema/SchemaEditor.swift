import Persist

/// Creates tables and columns as items need them, inside the write transaction, records them in
/// the metadata tables, and widens created columns and keys to the mixed encoding when they meet
/// a value their type cannot hold.
struct SchemaEditor {
    let transaction: BlockTransaction
    let location: String

    static let operation = "Changing the schema"

    func run(_ sql: String, _ parameters: [PGValue] = []) throws -> PGResult {
        try transaction.run([PGCommand(sql, parameters, operation: Self.operation)])[0]
    }

    /// Statements prepared before a change may no longer fit the tables: prepare them again.
    func retireStatements() {
        transaction.session.connection.retireAllStatements()
    }

    // MARK: The schema and its metadata

    /// Creates the schema and the metadata tables when they do not exist yet.
    func ensureMetadata(_ schema: inout StoreSchema) throws {
        guard !schema.hasMetadata else { return }
        var statements: [String] = []
        if !schema.exists { statements.append("CREATE SCHEMA IF NOT EXISTS \(schema.quoted)") }
        statements.append("""
            CREATE TABLE IF NOT EXISTS \(schema.qualified(StoreSchema.tablesTable)) (table_name text COLLATE "C" \
            PRIMARY KEY, item_type text COLLATE "C" NOT NULL UNIQUE, key_kind text NOT NULL)
            """)
        statements.append("""
            CREATE TABLE IF NOT EXISTS \(schema.qualified(StoreSchema.columnsTable)) (table_name text COLLATE "C" \
            NOT NULL, column_name text COLLATE "C" NOT NULL, attribute text COLLATE "C" NOT NULL, kind text NOT NULL, \
            PRIMARY KEY (table_name, column_name))
            """)
        _ = try transaction.run(statements.map { PGCommand($0, operation: Self.operation) })
        schema.exists = true
        schema.hasMetadata = true
        schema.takenNames.formUnion([StoreSchema.tablesTable, StoreSchema.columnsTable])
    }

    /// Creates the table of declared indexes when it does not exist yet.
    func ensureIndexTable(_ schema: inout StoreSchema) throws {
        guard !schema.takenNames.contains(StoreSchema.indexesTable) else { return }
        try ensureMetadata(&schema)
        _ = try run("""
            CREATE TABLE IF NOT EXISTS \(schema.qualified(StoreSchema.indexesTable)) (position bigint PRIMARY KEY, \
            name text COLLATE "C" NOT NULL UNIQUE, item_type text COLLATE "C" NOT NULL, attributes text NOT NULL, \
            is_unique boolean NOT NULL)
            """)
        schema.takenNames.insert(StoreSchema.indexesTable)
    }

    /// Creates the table of declared relations when it does not exist yet.
    func ensureRelationTable(_ schema: inout StoreSchema) throws {
        guard !schema.takenNames.contains(StoreSchema.relationsTable) else { return }
        try ensureMetadata(&schema)
        _ = try run("""
            CREATE TABLE IF NOT EXISTS \(schema.qualified(StoreSchema.relationsTable)) (position bigint PRIMARY KEY, \
            name text COLLATE "C" NOT NULL, item_type text COLLATE "C" NOT NULL, attributes text NOT NULL, \
            related_type text COLLATE "C" NOT NULL, on_delete text NOT NULL, UNIQUE (item_type, name))
            """)
        schema.takenNames.insert(StoreSchema.relationsTable)
    }

    /// The OID of the `persist_date` type, created when it does not exist yet.
    func ensureDateType(_ schema: inout StoreSchema) throws -> UInt32 {
        if let oid = schema.dateTypeOID { return oid }
        try ensureMetadata(&schema)
        let results = try transaction.run([
            PGCommand("CREATE TYPE \(schema.qualified(StoreSchema.dateType)) AS (at timestamptz, seconds double precision)",
                      operation: Self.operation),
            PGCommand("SELECT t.oid::int8 FROM pg_catalog.pg_type t WHERE t.typname = $1 AND t.typnamespace = "
                      + "(SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname = $2)",
                      [.text(StoreSchema.dateType), .text(schema.name)], operation: Self.operation),
        ])
        guard let oid = try results[1].int64(0, 0) else {
            throw DataStoreError(.io, "the type \(schema.qualified(StoreSchema.dateType)) was created but not found in "
                + "PostgreSQL at \(location)", path: location)
        }
        schema.dateTypeOID = UInt32(truncatingIfNeeded: oid)
        schema.takenNames.insert(StoreSchema.dateType)
        return UInt32(truncatingIfNeeded: oid)
    }

    // MARK: Tables and columns

    /// A new column for an attribute whose first value is `value`.
    struct PlannedColumn {
        let attribute: String
        let kind: CreatedKind
    }

    /// Creates the table of `itemType` with a key of `keyKind` and `columns`.
    func createTable(_ itemType: String, keyKind: KeyKind, columns planned: [PlannedColumn],
                     in schema: inout StoreSchema) throws -> TableSchema {
        try ensureMetadata(&schema)
        let name = SQLName.allocate(itemType) { schema.takenNames.contains($0) || StoreSchema.reservedNames.contains($0) }
        let key = ColumnSchema(attribute: TableSchema.createdKeyColumn, name: TableSchema.createdKeyColumn,
                               type: keyKind.columnType, typeOID: keyKind.columnType.builtinOID, isCreated: true)
        let columns = try makeColumns(planned, taken: [TableSchema.createdKeyColumn], in: &schema)
        let definitions = ["\(key.quoted) \(keyKind.sqlType) PRIMARY KEY"]
            + columns.map { "\($0.quoted) \(sqlType(of: $0, schema))" }
        let qualified = schema.qualified(name)
        let tables = schema.qualified(StoreSchema.tablesTable)
        var commands = [
            PGCommand("CREATE TABLE \(qualified) (\(definitions.joined(separator: ", ")))", operation: Self.operation),
            // Records of a table of this name or item type that legacy code dropped or renamed are
            // stale: the name was free, and no table the store made holds the item type.
            PGCommand("DELETE FROM \(tables) WHERE table_name = $1 OR (item_type = $2 AND "
                      + "pg_catalog.to_regclass(pg_catalog.quote_ident($3) || '.' || pg_catalog.quote_ident(table_name)) IS NULL)",
                      [.text(name), .text(itemType), .text(schema.name)], operation: Self.operation),
            PGCommand("DELETE FROM \(schema.qualified(StoreSchema.columnsTable)) WHERE table_name = $1", [.text(name)],
                      operation: Self.operation),
            PGCommand("INSERT INTO \(tables) (table_name, item_type, key_kind) "
                      + "VALUES ($1, $2, $3)", [.text(name), .text(itemType), .text(keyKind.rawValue)],
                      operation: Self.operation),
        ]
        commands += recordCommands(columns, table: name, schema)
        _ = try transaction.run(commands)
        let table = TableSchema(itemType: itemType, name: name, schema: schema.name, key: key, keyKind: keyKind,
                                columns: columns, columnOrder: [key.name] + columns.map(\.name),
                                takenNames: Set([key.name] + columns.map(\.name)),
                                reservedAttributes: [:], writes: .direct)
        schema.tables[itemType] = table
        schema.takenNames.insert(name)
        return table
    }

    /// Adds created columns to a table.
    func addColumns(_ planned: [PlannedColumn], to table: TableSchema, in schema: inout StoreSchema) throws -> TableSchema {
        try ensureMetadata(&schema)
        let columns = try makeColumns(planned, taken: table.takenNames, in: &schema)
        let additions = columns.map { "ADD COLUMN \($0.quoted) \(sqlType(of: $0, schema))" }.joined(separator: ", ")
        _ = try transaction.run([PGCommand("ALTER TABLE \(table.qualified) \(additions)", operation: Self.operation)]
            + recordCommands(columns, table: table.name, schema))
        retireStatements()
        let extended = table.replacing(columns: table.columns + columns, schema: schema.name)
        schema.tables[table.itemType] = extended
        return extended
    }

    private func makeColumns(_ planned: [PlannedColumn], taken: Set<String>, in schema: inout StoreSchema) throws -> [ColumnSchema] {
        var taken = taken
        var columns: [ColumnSchema] = []
        for column in planned {
            // A system column's name is taken in every table: such an attribute gets a hashed name.
            let name = SQLName.allocate(column.attribute) { taken.contains($0) || SQLName.systemColumns.contains($0) }
            taken.insert(name)
            let type = column.kind.columnType
            let oid = column.kind == .date ? try ensureDateType(&schema) : type.builtinOID
            columns.append(ColumnSchema(attribute: column.attribute, name: name, type: type, typeOID: oid, isCreated: true))
        }
        return columns
    }

    private func sqlType(of column: ColumnSchema, _ schema: StoreSchema) -> String {
        (column.createdKind ?? .mixed).sqlType(dateType: schema.qualified(StoreSchema.dateType))
    }

    /// Records new columns; a record left by a column of the same name that another session
    /// dropped or renamed is replaced.
    private func recordCommands(_ columns: [ColumnSchema], table: String, _ schema: StoreSchema) -> [PGCommand] {
        columns.map { column in
            PGCommand("INSERT INTO \(schema.qualified(StoreSchema.columnsTable)) (table_name, column_name, attribute, kind) "
                      + "VALUES ($1, $2, $3, $4) ON CONFLICT (table_name, column_name) "
                      + "DO UPDATE SET attribute = EXCLUDED.attribute, kind = EXCLUDED.kind",
                      [.text(table), .text(column.name), .text(column.attribute), .text((column.createdKind ?? .mixed).rawValue)],
                      operation: Self.operation)
        }
    }
}
