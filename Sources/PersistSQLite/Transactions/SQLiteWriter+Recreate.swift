import Foundation
import Persist
import PersistSQL

/// Recreating an adopted table of another SQL database before a migration loads it, and the
/// lossless fallback of a column whose declared type cannot keep a value (see Persist's
/// "Schema-faithful migrations" article).
extension SQLiteWriter: SchemaRecreatingWriter {
    private static let recreating = "Recreating a table"
    /// The declared type of a column that fell back: none, so that SQLite keeps every storage class.
    static let fallbackType = ""

    var columnFallbacks: [MigrationReport.Fallback] { recreation.fallbacks }

    func recreate(_ carried: any CarriedSchema) throws -> Bool {
        guard let description = carried as? TableDescription else { return false }
        try checkTransaction()
        if recreation.tables[description.itemType] != nil { return false }
        guard schema.tables[description.itemType] == nil else {
            // A later write block of the same load: the table is there; remember its declared types.
            if let table = schema.tables[description.itemType], !table.isCreatedByStore {
                recreation.remember(description)
            }
            return false
        }
        if let reason = schema.reasonNotToCreate(description.itemType) {
            throw DataStoreError(
                .invalidArgument,
                "the table \(String(reflecting: description.itemType)) cannot be recreated in the SQLite database at "
                    + "\(path): \(reason)", path: path)
        }
        try checkColumnNamesDiffer(description)
        var translated = description
        translated.columns = description.columns.map { column in
            var copy = column
            copy.declaredType = SQLTypeMapping.translate(column.declaredType, from: description.dialect, to: .sqlite,
                                                         enumTypes: Set(description.enumTypes.keys))
            return copy
        }
        if var key = description.key {
            key.declaredType = SQLTypeMapping.translate(key.declaredType, from: description.dialect, to: .sqlite)
            translated.key = key
        }
        translated.dialect = .sqlite
        try create(translated, named: translated.itemType)
        if description.dialect == .postgresql {
            try holdJSON(translated)
            try holdBooleans(translated)
        }
        try recordEnumTypes(description.enumTypes)
        recreation.created(translated)
        noteSchemaChange("recreated table \(String(reflecting: translated.itemType)) from its source's schema")
        return true
    }

    /// Refuses a table with two columns whose names differ only in ASCII case (`Name` and `name`,
    /// two columns in PostgreSQL): SQLite takes them for one name.
    private func checkColumnNamesDiffer(_ description: TableDescription) throws {
        var seen: [String: String] = [:]
        for column in (description.key.map { [$0] } ?? []) + description.columns {
            if let other = seen.updateValue(column.name, forKey: SQLName.folded(column.name)) {
                throw DataStoreError(
                    .invalidArgument,
                    "the table \(String(reflecting: description.itemType)) cannot be recreated in the SQLite database at "
                        + "\(path): its columns \(String(reflecting: other)) and \(String(reflecting: column.name)) differ "
                        + "only in case, which SQLite takes for one name; rename one of the attributes on the way",
                    path: path)
            }
        }
    }

    /// `CREATE TABLE` for a description.
    private func create(_ description: TableDescription, named name: String) throws {
        func typed(_ column: TableDescription.Column) -> String {
            SQLName.quoted(column.name) + (column.declaredType.isEmpty ? "" : " " + column.declaredType)
        }
        var definitions = TableRecreation.definitions(of: description, column: { column in
            typed(column) + (column.notNull ? " NOT NULL" : "") + (column.unique ? " UNIQUE" : "")
        }, key: { key in
            typed(key) + " PRIMARY KEY" + (key.notNull ? " NOT NULL" : "")
        })
        // A primary key of several columns is a table constraint; a keyless table declares none.
        if description.key == nil, !description.primaryKey.isEmpty {
            definitions.append("PRIMARY KEY (\(description.primaryKey.map(SQLName.quoted).joined(separator: ", ")))")
        }
        let suffix = description.withoutRowid ? " WITHOUT ROWID" : ""
        try connection.executeOnce("CREATE TABLE \(SQLName.quoted(name)) (\(definitions.joined(separator: ", ")))\(suffix)",
                                   operation: Self.recreating)
        try reloadTable(description.itemType)
    }

    private func reloadTable(_ itemType: String) throws {
        guard let table = try SchemaLoader.loadTable(itemType, connection) else {
            throw DataStoreError(.misuse, "the recreated table \(String(reflecting: itemType)) in the SQLite database at "
                                    + "\(path) is not an item type", path: path)
        }
        schema.tables[itemType] = table
        schema.takenNames[SQLName.folded(itemType)] = itemType
    }

    /// Builds the secondary indexes of the tables this transaction recreated, after their load.
    func createRecreatedIndexes() throws {
        for description in recreation.takeAwaitingIndexes() {
            let itemType = description.itemType
            for index in description.indexes {
                let columns = index.columns.map(SQLName.quoted).joined(separator: ", ")
                let name = schema.indexName(for: index.name)
                try connection.executeOnce(
                    "CREATE \(index.unique ? "UNIQUE " : "")INDEX \(SQLName.quoted(name)) ON \(SQLName.quoted(itemType)) (\(columns))",
                    operation: Self.recreating)
                schema.takenNames[SQLName.folded(name)] = name
                if name != index.name {
                    noteSchemaChange("the index \(String(reflecting: index.name)) of \(String(reflecting: itemType)) is named "
                                        + "\(String(reflecting: name)): the database has that name, or SQLite reserves it")
                }
            }
        }
        for (_, probe) in probeTables { try connection.executeOnce("DROP TABLE temp.\(SQLName.quoted(probe))", operation: Self.recreating) }
        probeTables = [:]
    }

    /// Inserts an item into a recreated table; when a value (or the identifier) does not fit its
    /// column's declared type, the column falls back (its declared type dropped, and tagged if the
    /// value needs it) and the insert is retried.
    func insertRecreated(_ item: Item) throws {
        do {
            try insert(item)
            return
        } catch let error as DataStoreError where error.code == .typeMismatch {
            if try holdDates(item) {
                try insertRecreated(item)
                return
            }
            var misfits = try misfittingColumns(item)
            if let key = recreation.tables[item.itemType]?.key, try keyMisfits(item, key) {
                misfits.insert((key.name, item.id.value), at: 0)
            }
            guard !misfits.isEmpty else { throw error }
            for (name, value) in misfits { try fallBack(item.itemType, column: name, for: value) }
        }
        try insert(item)
    }

    /// Records the enum types a recreated table's columns are declared with (see ``EnumTypeTable``).
    private func recordEnumTypes(_ types: [String: [String]]) throws {
        guard !types.isEmpty else { return }
        try EnumTypeTable.record(types, connection)
        schema.takenNames[DatabaseSchema.enumTable] = DatabaseSchema.enumTable
    }

    /// Makes the columns of a table recreated from PostgreSQL declared `json`, `jsonb` or as an
    /// array hold their values as JSON text (see ``JSONText``), recording their kind `json` while
    /// the table is still empty, so that every value they get reads back as it went in.
    private func holdJSON(_ description: TableDescription) throws {
        let columns = description.columns.filter { JSONText.isJSONType($0.declaredType) }.map(\.name)
        guard !columns.isEmpty else { return }
        try editor.record(description.itemType, columns.sorted(by: ByteOrder.precedes).map {
            ColumnSchema(name: $0, storage: ColumnSchema.jsonRecord)
        }, in: &schema)
        try editor.markSchemaChanged(operation: Self.recreating)
        try reloadTable(description.itemType)
    }

    /// Records the kind `bool` for the columns a PostgreSQL `boolean` became (declared `boolean`)
    /// while the table is empty: they hold booleans as the INTEGER 0 and 1 a legacy app reads, and
    /// give them back as booleans.
    private func holdBooleans(_ description: TableDescription) throws {
        let columns = description.columns.filter { ColumnSchema.declaresBoolean($0.declaredType) }.map(\.name)
        guard !columns.isEmpty else { return }
        try editor.recordKind(.bool, of: columns.sorted(by: ByteOrder.precedes), in: description.itemType, schema: &schema)
        try editor.markSchemaChanged(operation: Self.recreating)
        try reloadTable(description.itemType)
    }

    /// Makes the columns declared for dates (`DATE`, `DATETIME`, `TIMESTAMP`) that meet their first
    /// date hold dates as ISO text, recording their kind, so that the text reads back as the
    /// dates it spells; a column already holding text (an ORM's strings) keeps it as strings.
    /// Returns whether a column changed.
    private func holdDates(_ item: Item) throws -> Bool {
        guard let table = schema.tables[item.itemType] else { return false }
        var columns: [String] = []
        for (name, value) in item.attributes where value.kind == .date {
            guard let index = table.columnIndex[name], case .legacy = table.columns[index].storage,
                  table.columns[index].dateForm == nil,
                  DateText.form(ofDeclaredType: recreation.declaredType(of: name, in: item.itemType)) != nil else { continue }
            let quoted = SQLName.quoted(name)
            let holdsText = try connection.integer(
                "SELECT EXISTS (SELECT 1 FROM \(table.quoted) WHERE typeof(\(quoted)) = 'text')", operation: Self.recreating)
            if holdsText == 0 { columns.append(name) }
        }
        guard !columns.isEmpty else { return false }
        try editor.recordKind(.date, of: columns.sorted(by: ByteOrder.precedes), in: item.itemType, schema: &schema)
        try editor.markSchemaChanged(operation: Self.recreating)
        try reloadTable(item.itemType)
        return true
    }

    /// The attributes of `item` whose columns cannot keep them as given.
    private func misfittingColumns(_ item: Item) throws -> [(String, Value)] {
        guard let table = schema.tables[item.itemType] else { return [] }
        var misfits: [(String, Value)] = []
        for (name, value) in item.attributes.sorted(by: { ByteOrder.precedes($0.key, $1.key) }) {
            guard let index = table.columnIndex[name], case .legacy(let affinity) = table.columns[index].storage else { continue }
            // A column that reads decimals gives an integer or a double back as a decimal.
            let readsAsDecimal = table.columns[index].readsDecimals && (value.kind == .int || value.kind == .double)
            guard !readsAsDecimal, let binding = ValueCodec.legacyBinding(value, for: table.columns[index]) else {
                misfits.append((name, value))
                continue
            }
            guard let storage = ValueCodec.storageClass(binding), affinity.mayConvertOnStore(storage) else { continue }
            if try !keepsAsGiven(value, binding, declaredType: recreation.declaredType(of: name, in: item.itemType),
                                 readsJSON: table.columns[index].holdsJSON) {
                misfits.append((name, value))
            }
        }
        return misfits
    }

    /// Whether the key column of a recreated table, declared as `key` says, cannot keep `item`'s
    /// identifier as given: a rowid alias (`INTEGER PRIMARY KEY`) keeps only integers, and an
    /// affinity may convert the rest.
    private func keyMisfits(_ item: Item, _ key: TableDescription.Column) throws -> Bool {
        guard !key.declaredType.isEmpty else { return false }
        let isRowidAlias = key.declaredType.uppercased() == "INTEGER" && recreation.tables[item.itemType]?.withoutRowid == false
        if isRowidAlias { return item.id.value.kind != .int }
        let binding = ValueCodec.binding(item.id)
        guard let storage = ValueCodec.storageClass(binding),
              ColumnAffinity(declaredType: key.declaredType, strict: false).mayConvertOnStore(storage) else { return false }
        return try !keepsAsGiven(item.id.value, binding, declaredType: key.declaredType)
    }

    /// Whether a column of `declaredType` gives `value` back as given: stored in a temporary table
    /// of one such column, and read back.
    private func keepsAsGiven(_ value: Value, _ binding: SQLBinding, declaredType: String, readsJSON: Bool = false) throws -> Bool {
        let probe: String
        if let known = probeTables[declaredType] {
            probe = known
        } else {
            probe = "persist_probe_\(probeTables.count + 1)"
            let type = declaredType.isEmpty ? "" : " " + declaredType
            try connection.executeOnce("CREATE TEMP TABLE \(SQLName.quoted(probe)) (v\(type))", operation: Self.recreating)
            probeTables[declaredType] = probe
        }
        let table = "temp.\(SQLName.quoted(probe))"
        try connection.execute("INSERT INTO \(table) (v) VALUES (?1)", [binding], operation: Self.recreating)
        let stored: Value? = try connection.withStatement("SELECT v FROM \(table)") { statement in
            guard try statement.step(Self.recreating), let column = statement.column(0) else { return nil }
            // A value given as a string reads back as one (invalid UTF-8 is never given); a decimal
            // as the decimal its form spells.
            if case .date = value, column.storage == .text {
                return column.text.flatMap(DateText.date).map(Value.date)
            }
            if readsJSON, column.storage == .text { return column.text.map(JSONText.value(ofText:)) }
            if case .decimal = value {
                switch column.storage {
                case .integer: return .decimal(Decimal(column.int64))
                case .real: return DecimalCodec.decimal(ofReal: column.double).map(Value.decimal)
                case .blob: return String(validating: column.blob, as: UTF8.self).flatMap(DecimalText.parse).map(Value.decimal)
                case .text: return column.native
                }
            }
            return column.native
        }
        try connection.executeOnce("DELETE FROM \(table)", operation: Self.recreating)
        guard let stored else { return false }
        if case .double(let given) = value, case .double(let kept) = stored { return given.bitPattern == kept.bitPattern }
        return stored == value
    }

    /// Rebuilds the recreated table with `column` declared without a type, keeping its rows, and
    /// makes it a tagged column when `value` needs one; records the fallback once per column.
    private func fallBack(_ itemType: String, column: String, for value: Value) throws {
        guard var description = recreation.tables[itemType] else { return }
        let declared = recreation.declaredType(of: column, in: itemType)
        if let table = schema.tables[itemType], let index = table.columnIndex[column],
           table.columns[index].dateForm != nil || table.columns[index].holdsJSON {
            // Its values are ISO or JSON text only its recorded kind reads as such: the column is made
            // again without a type, each value rewritten with its kind.
            _ = try editor.widenToMixed(columnAt: index, of: table, in: &schema, path: path)
            recreation.remember(description.replacingTypes(of: [column], with: Self.fallbackType))
            let fallbackType = "none, tagged with each value's kind"
            recreation.noteFallback(itemType, column: column, declaredType: declared, to: fallbackType, example: Self.brief(value))
            noteSchemaChange("column \(String(reflecting: column)) of recreated table \(String(reflecting: itemType)) "
                + "fell back from \(declared) to \(fallbackType) to keep \(Self.brief(value))")
            return
        }
        if !declared.isEmpty {
            description = description.replacingTypes(of: [column], with: Self.fallbackType)
            let old = "\(itemType) persist_rebuild"
            try connection.executeOnce("ALTER TABLE \(SQLName.quoted(itemType)) RENAME TO \(SQLName.quoted(old))",
                                       operation: Self.recreating)
            try create(description, named: itemType)
            try connection.executeOnce("INSERT INTO \(SQLName.quoted(itemType)) SELECT * FROM \(SQLName.quoted(old))",
                                       operation: Self.recreating)
            try connection.executeOnce("DROP TABLE \(SQLName.quoted(old))", operation: Self.recreating)
            recreation.remember(description)
            try reloadTable(itemType)
        }
        var fallbackType = "none (each value keeps its storage class)"
        if ValueCodec.legacyBinding(value) == nil, let table = schema.tables[itemType], let index = table.columnIndex[column] {
            _ = try editor.widenToMixed(columnAt: index, of: table, in: &schema, path: path)
            fallbackType = "none, tagged with each value's kind"
        }
        recreation.noteFallback(itemType, column: column, declaredType: declared, to: fallbackType, example: Self.brief(value))
        noteSchemaChange("column \(String(reflecting: column)) of recreated table \(String(reflecting: itemType)) "
            + "fell back from \(declared.isEmpty ? "no type" : declared) to \(fallbackType) to keep \(Self.brief(value))")
    }
}
