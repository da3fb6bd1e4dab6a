import Persist
import PersistSQL

/// Recreating an adopted table of another SQL database before a migration loads it (names, the
/// key with its type, declared types after ``SQLTypeMapping``, NOT NULL, UNIQUE; secondary
/// indexes after the load), and the lossless fallback of a column whose declared type cannot keep
/// a value: the column becomes Persist's tagged `bytea` encoding (recorded in `persist_columns`,
/// so every kind reads back as it went in), and the fallback is reported.
extension PostgresWriter: SchemaRecreatingWriter {
    static let recreating = "Recreating a table"
    /// What a fallen-back column is declared as, as the report says it: its values are tagged,
    /// so a column declared `bytea` (an untyped SQLite one) that falls back does change.
    static let fallbackType = "bytea, tagged with each value's kind"

    func recreate(_ carried: any CarriedSchema) throws -> Bool {
        guard let description = carried as? TableDescription else { return false }
        // Called before each chunk of a load: a table already recreated leaves the open COPY alone.
        try checkNotFailed()
        if recreation.tables[description.itemType] != nil { return false }
        try endBulkCopy()
        if let table = schema.tables[description.itemType] {
            // A later write block of the same load: the table is there; remember its declared types.
            if !table.isCreated { recreation.remember(translated(description)) }
            return false
        }
        if let reason = unrecreatableReason(description.itemType) {
            throw DataStoreError(
                .invalidArgument,
                "the table \(String(reflecting: description.itemType)) cannot be recreated in PostgreSQL at \(location): "
                    + reason + "; rename the type on the way", path: location)
        }
        let target = translated(description)
        let columns = (target.key.map { [$0] } ?? []) + target.columns
        if let system = columns.first(where: { SQLName.systemColumns.contains($0.name) }) {
            throw DataStoreError(
                .invalidArgument,
                "the table \(String(reflecting: description.itemType)) cannot be recreated in PostgreSQL at \(location): "
                    + "its column \(String(reflecting: system.name)) has the name of one of PostgreSQL's system columns, "
                    + "which every table has; rename the attribute on the way", path: location)
        }
        if let long = columns.first(where: { $0.name.utf8.count > SQLName.maximumBytes }) {
            // PostgreSQL would cut the name, and the attribute's values would go to another column.
            throw DataStoreError(
                .invalidArgument,
                "the table \(String(reflecting: description.itemType)) cannot be recreated in PostgreSQL at \(location): "
                    + "its column \(String(reflecting: long.name)) is longer than \(SQLName.maximumBytes) bytes, "
                    + "PostgreSQL's limit for a name; rename the attribute on the way", path: location)
        }
        var definitions = TableRecreation.definitions(of: target, column: Self.definition) { key in
            var key = key
            key.notNull = false
            return Self.definition(key) + " PRIMARY KEY"
        }
        // A primary key of several columns is recreated as it was; a keyless table gets no key (its
        // rows load without their identifiers, duplicates kept).
        let namesKey = target.key != nil || !target.primaryKey.isEmpty || target.isKeyless
        if !target.primaryKey.isEmpty {
            definitions.append("PRIMARY KEY (\(target.primaryKey.map(SQLName.quoted).joined(separator: ", ")))")
        }
        // A table keyed by a rowid it does not name gets a key column for its rowids, first.
        let rowidColumn = namesKey ? nil : Self.rowidColumnName(avoiding: target.columns)
        if let rowidColumn {
            definitions.insert(SQLName.quoted(rowidColumn) + " bigint PRIMARY KEY", at: 0)
        } else if !namesKey {
            throw DataStoreError(
                .unsupported,
                "the table \(String(reflecting: description.itemType)) cannot be recreated in PostgreSQL at \(location): "
                    + "it is keyed by a rowid it does not name, and its columns take every name the rowid could have "
                    + "(\(SQLName.rowidNames.joined(separator: ", "))); rename one of them on the way", path: location)
        }
        let qualified = SQLName.qualified(schema.name, description.itemType)
        var commands = [PGCommand("CREATE SCHEMA IF NOT EXISTS \(SQLName.quoted(schema.name))", operation: Self.recreating)]
        commands += try enumCreations(description)
        commands += [PGCommand("CREATE TABLE \(qualified) (\(definitions.joined(separator: ", ")))",
                                  operation: Self.recreating)]
        if description.dialect == .sqlite {
            for column in (description.key.map { [$0] } ?? []) + description.columns {
                let nullableKey = column.name == description.key?.name && description.key?.notNull == false
                let comment = PostgresReader.sqliteTypeComment + column.declaredType
                    + (nullableKey ? PostgresReader.nullableKeyComment : "")
                commands.append(PGCommand("COMMENT ON COLUMN \(qualified).\(SQLName.quoted(column.name)) IS "
                                            + Self.literal(comment), operation: Self.recreating))
            }
            if let rowidColumn {
                commands.append(PGCommand("COMMENT ON COLUMN \(qualified).\(SQLName.quoted(rowidColumn)) IS "
                                            + Self.literal(PostgresReader.rowidComment), operation: Self.recreating))
            }
            if description.withoutRowid {
                commands.append(PGCommand("COMMENT ON TABLE \(qualified) IS " + Self.literal(PostgresReader.withoutRowidComment),
                                          operation: Self.recreating))
            }
        }
        do {
            _ = try transaction.run(commands)
        } catch let error as DataStoreError
                    where [PostgresSQLState.undefinedObject, .invalidSchemaName].map(\.engineCode).contains(error.engineCode) {
            throw missingType(error, description.itemType, columns)
        }
        try reloadSchema()
        guard schema.tables[description.itemType] != nil else {
            throw DataStoreError(.unsupported, "the recreated table \(qualified) in PostgreSQL at \(location) cannot hold "
                                    + "items (its key type is not one identifiers fit)", path: location)
        }
        recreation.created(target)
        schemaChanges.append("recreated table \(qualified) from its source's schema")
        return true
    }

    var columnFallbacks: [MigrationReport.Fallback] { recreation.fallbacks }

    /// Why a table named `itemType` cannot be recreated under that name, `nil` when it can. A name
    /// the store keeps for its own objects is refused even while the schema lacks that object: a
    /// table named `persist_date` would be taken for the type dates are stored as.
    private func unrecreatableReason(_ itemType: String) -> String? {
        if StoreSchema.reservedNames.contains(itemType) {
            return "the store keeps that name for its own objects ("
                + StoreSchema.reservedNames.sorted().joined(separator: ", ") + ")"
        }
        if itemType.utf8.count > SQLName.maximumBytes {
            return "the name is longer than \(SQLName.maximumBytes) bytes, PostgreSQL's limit for a name"
        }
        if schema.takenNames.contains(itemType) { return "the schema has a relation or type of that name" }
        return nil
    }

    /// The error for a table whose recreation met a type the target database does not have: a
    /// column of a type the source's database defines (an enum, a composite type), named by its
    /// schema, which another database lacks.
    private func missingType(_ error: DataStoreError, _ itemType: String, _ columns: [TableDescription.Column]) -> DataStoreError {
        let defined = columns.filter { $0.declaredType.contains(".") }
            .map { "\(String(reflecting: $0.name)) (\($0.declaredType))" }
        let which = defined.isEmpty ? "a column's type" : "the type of its column " + defined.joined(separator: ", ")
        return DataStoreError(
            .unsupported,
            "the table \(String(reflecting: itemType)) cannot be recreated in PostgreSQL at \(location): "
                + "\(which) is not in the target database (\(error.engineMessage ?? error.message)); create the type "
                + "there first, or leave the type out", path: location, engineCode: error.engineCode,
            engineMessage: error.engineMessage)
    }

    /// The name of the key column that holds the rowids of a table keyed by a rowid it does not
    /// name: the first of SQLite's names for it that no column has (SQLite compares names without
    /// case), `nil` when every one is taken.
    static func rowidColumnName(avoiding columns: [TableDescription.Column]) -> String? {
        let taken = Set(columns.map { $0.name.lowercased() })
        return SQLName.rowidNames.first { !taken.contains($0) }
    }

    /// The statements creating the enum types `description` names in the store's schema, before
    /// its table: none for a type there with the same labels in the same order.
    ///
    /// - Throws: ``DataStoreError/Code/unsupported`` for a type of that name with other labels,
    ///   or one that is not an enum.
    private func enumCreations(_ description: TableDescription) throws -> [PGCommand] {
        var commands: [PGCommand] = []
        for (name, labels) in description.enumTypes.sorted(by: { ByteOrder.precedes($0.key, $1.key) }) {
            let result = try transaction.run([PGCommand("""
                SELECT t.typtype::text, (SELECT pg_catalog.string_agg(e.enumlabel::text, E'\\x1f' ORDER BY e.enumsortorder)
                                         FROM pg_catalog.pg_enum e WHERE e.enumtypid = t.oid)
                FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
                WHERE n.nspname = $1 AND t.typname = $2
                """, [.text(schema.name), .text(name)], operation: Self.recreating)])[0]
            let qualifiedType = SQLName.qualified(schema.name, name)
            guard result.rowCount > 0 else {
                commands.append(PGCommand("CREATE TYPE \(qualifiedType) AS ENUM ("
                    + labels.map(Self.literal).joined(separator: ", ") + ")", operation: Self.recreating))
                continue
            }
            let isEnum = try result.text(0, 0) == "e"
            let existing = try result.text(0, 1).map {
                $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            } ?? []
            guard isEnum, existing == labels else {
                let spelled = { (labels: [String]) in labels.map { String(reflecting: $0) }.joined(separator: ", ") }
                throw DataStoreError(
                    .unsupported,
                    "the table \(String(reflecting: description.itemType)) cannot be recreated in PostgreSQL at \(location): "
                        + "its enum type \(qualifiedType) is there already "
                        + (isEnum ? "with the labels \(spelled(existing)), not " : "as another kind of type, not an enum of ")
                        + spelled(labels) + "; drop or rename it there first", path: location)
            }
        }
        return commands
    }

    /// The description in PostgreSQL's words. A key whose type identifiers cannot fit (numeric,
    /// double precision) becomes `text`; a column of one of its enum types names the type in the
    /// store's schema.
    private func translated(_ description: TableDescription) -> TableDescription {
        var target = description.translated(to: .postgresql)
        if !description.enumTypes.isEmpty {
            target.columns = target.columns.map { column in
                var column = column
                let isArray = column.declaredType.hasSuffix("[]")
                let base = isArray ? String(column.declaredType.dropLast(2)) : column.declaredType
                if description.enumTypes[base] != nil {
                    column.declaredType = SQLName.qualified(schema.name, base) + (isArray ? "[]" : "")
                }
                return column
            }
        }
        func fitting(_ column: TableDescription.Column) -> TableDescription.Column {
            let lowered = column.declaredType.lowercased()
            let fits = !(lowered.hasPrefix("numeric") || lowered.hasPrefix("decimal") || lowered.hasPrefix("double")
                || lowered.hasPrefix("real") || lowered.hasPrefix("float"))
            var copy = column
            if !fits { copy.declaredType = "text" }
            return copy
        }
        target.key = target.key.map(fitting)
        if !target.primaryKey.isEmpty {
            let keyNames = Set(target.primaryKey)
            target.columns = target.columns.map { keyNames.contains($0.name) ? fitting($0) : $0 }
        }
        return target
    }

    private static func definition(_ column: TableDescription.Column) -> String {
        var text = SQLName.quoted(column.name) + " " + (column.declaredType.isEmpty ? "bytea" : column.declaredType)
        if column.notNull { text += " NOT NULL" }
        if column.unique { text += " UNIQUE" }
        return text
    }

    private static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Whether rows of `table` may be copied in bulk: a table this block recreated has no
    /// triggers, rules, defaults or row security of its own.
    func isRecreated(_ table: TableSchema) -> Bool {
        recreation.created.contains(table.itemType)
    }

    /// Makes the columns of a recreated table that cannot keep `row`'s values as given fall back
    /// to the tagged encoding; `false` when nothing could be done. An attribute that has no column
    /// (one added to the items of a schemaless source after it recorded the table) is passed over:
    /// the general insert path adds its column once the others fit.
    func fallBack(for row: ItemRow, in table: TableSchema) throws -> Bool {
        let dateOID = schema.dateTypeOID ?? 0
        var current = table
        var changed = false
        for (name, value) in zip(row.names.names, row.values) {
            guard let index = current.columnIndex[name] else { continue }
            let column = current.columns[index]
            guard column.type.encode(value, persistDateOID: dateOID) == nil || !column.type.readsBackKind(of: value)
            else { continue }
            guard column.type != .mixed else { return false }
            if let plain = try plainFallback(for: value, columnAt: index, of: current) {
                current = plain.table
                noteFallback(of: row, column: column.name, to: plain.type, value: value)
                schemaChanges.append("column \(column.quoted) of table \(current.qualified) fell back to \(plain.type)")
                changed = true
                continue
            }
            try editor.ensureMetadata(&schema)
            current = try editor.widen(columnAt: index, of: current, in: &schema)
            _ = try transaction.run([
                PGCommand("INSERT INTO \(schema.qualified(StoreSchema.columnsTable)) (table_name, column_name, attribute, "
                            + "kind) VALUES ($1, $2, $3, $4) ON CONFLICT (table_name, column_name) DO UPDATE SET kind = $4",
                          [.text(current.name), .text(column.name), .text(column.attribute), .text(CreatedKind.mixed.rawValue)],
                          operation: Self.recreating),
            ])
            noteFallback(of: row, column: column.name, to: Self.fallbackType, value: value)
            schemaChanges.append("column \(column.quoted) of table \(current.qualified) fell back to the tagged encoding")
            changed = true
        }
        return changed
    }

    /// Reports that `column` of `row`'s table fell back to `type` to keep `value`. A column that
    /// fell back to plain `text` or `bytea` first and then to the tagged encoding is reported once,
    /// with where it ended and the first value its declared type could not keep.
    private func noteFallback(of row: ItemRow, column: String, to type: String, value: Value) {
        recreation.noteFallback(row.itemType, column: column,
                                declaredType: recreation.declaredType(of: column, in: row.itemType), to: type,
                                example: Self.brief(value))
    }

    /// The plain type a column takes to keep `value` while it holds nothing else: a string (without
    /// NUL, which `text` cannot hold) makes it `text`, bytes make it `bytea`, an integer `bigint` and
    /// a double `double precision` (a `numeric` column would give them back as decimals). So a column that SQLite
    /// declared `datetime` (numeric in PostgreSQL) and that holds only text, as ORMs write dates,
    /// becomes a `text` column that SQL reads as text, not the tagged encoding. `nil` when the
    /// column already holds a value (which the plain type might not keep) or no plain type fits.
    private func plainFallback(
        for value: Value, columnAt index: Int, of table: TableSchema
    ) throws -> (table: TableSchema, type: String)? {
        let type: String
        switch value {
        case .string(let string) where !string.utf8.contains(0): type = "text"
        case .bytes: type = "bytea"
        case .int: type = "bigint"
        case .double: type = "double precision"
        default: return nil
        }
        let column = table.columns[index]
        let occupied = try editor.run("SELECT EXISTS (SELECT 1 FROM \(table.qualified) WHERE \(column.quoted) IS NOT NULL)")
        guard try occupied.bool(0, 0) == false else { return nil }
        _ = try transaction.run([
            PGCommand("ALTER TABLE \(table.qualified) ALTER COLUMN \(column.quoted) TYPE \(type) USING NULL",
                      operation: Self.recreating),
        ])
        editor.retireStatements()
        try reloadSchema()
        guard let changed = schema.tables[table.itemType] else {
            throw DataStoreError(.io, "the recreated table \(table.qualified) in PostgreSQL at \(location) was not found "
                                    + "after its column \(column.quoted) fell back to \(type)", path: location)
        }
        return (changed, type)
    }

    /// Makes the key of a recreated table hold identifiers of every kind (the tagged `bytea`
    /// encoding, recorded in `persist_columns`) because `row`'s identifier does not fit its
    /// declared type; `nil` when the key's type is not one that can (integers, text or bytea).
    func fallBackKey(for row: ItemRow, in table: TableSchema) throws -> TableSchema? {
        switch table.key.type {
        case .bigint, .integer, .smallint, .text, .bytea: break
        default: return nil
        }
        try editor.ensureMetadata(&schema)
        _ = try editor.widenKey(of: table, in: &schema)
        _ = try transaction.run([
            PGCommand("INSERT INTO \(schema.qualified(StoreSchema.columnsTable)) (table_name, column_name, attribute, kind) "
                        + "VALUES ($1, $2, $2, $3) ON CONFLICT (table_name, column_name) DO UPDATE SET kind = $3",
                      [.text(table.name), .text(table.key.name), .text(CreatedKind.mixed.rawValue)], operation: Self.recreating),
        ])
        try reloadSchema()
        guard let widened = schema.tables[row.itemType], widened.key.type == .mixed else {
            throw DataStoreError(.io, "the key \(table.key.quoted) of the recreated table \(table.qualified) in PostgreSQL at "
                                    + "\(location) did not read back as the tagged encoding it fell back to", path: location)
        }
        recreation.noteFallback(row.itemType, column: table.key.name,
                                declaredType: recreation.declaredType(of: table.key.name, in: row.itemType),
                                to: Self.fallbackType, example: String(String(describing: row.id).prefix(40)))
        schemaChanges.append("the key \(table.key.quoted) of table \(table.qualified) fell back to the tagged encoding")
        return widened
    }

    /// Builds the secondary indexes of the tables this block recreated, after their load.
    func createRecreatedIndexes() throws {
        let awaiting = recreation.takeAwaitingIndexes()
        for description in awaiting {
            let itemType = description.itemType
            let qualified = SQLName.qualified(schema.name, itemType)
            // An index name is kept when PostgreSQL can hold it and the schema has no relation of
            // that name; otherwise it is shortened with a hash, never cut or refused at the end.
            var named: Set<String> = []
            let commands = description.indexes.map { index in
                let name = SQLName.allocate(index.name) { schema.takenNames.contains($0) || named.contains($0) }
                named.insert(name)
                return PGCommand("CREATE \(index.unique ? "UNIQUE " : "")INDEX \(SQLName.quoted(name)) ON \(qualified) ("
                                   + index.columns.map(SQLName.quoted).joined(separator: ", ") + ")", operation: Self.recreating)
            }
            if !commands.isEmpty { _ = try transaction.run(commands) }
        }
        if !awaiting.isEmpty { schemaChanges.append("built the indexes of recreated tables") }
    }
}
