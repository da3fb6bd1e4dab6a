import Persist
import PersistSQL

/// Describes adopted tables for a migration that recreates them (see the "Schema-faithful
/// migrations" article of Persist).
extension SQLiteReader: SQLSchemaDescribing {
    private static let describing = "Describing a table"

    func describedTypes() throws -> [String] {
        try checkedSchema.tables.values.filter { !$0.isCreatedByStore }.map(\.name).sorted { ByteOrder.precedes($0, $1) }
    }

    func columnsOutsideItems(ofTypes itemTypes: [String]?) throws -> [String] {
        let wanted = itemTypes.map(Set.init)
        var found: [String] = []
        for table in try checkedSchema.tables.values.sorted(by: { ByteOrder.precedes($0.name, $1.name) })
        where wanted?.contains(table.name) ?? true {
            // A column with an empty name is not an attribute (see SchemaLoader); a value in it
            // would not reach any copy. (Unless it is the key: its values are the identifiers.)
            if case .column(let keyName, _, _) = table.key, keyName.isEmpty { continue }
            let unnamed = try connection.integer(
                "SELECT count(*) FROM pragma_table_xinfo(?1, 'main') WHERE name = '' AND hidden = 0", [.text(table.name)],
                operation: Self.describing)
            guard unnamed > 0 else { continue }
            if try connection.integer("SELECT EXISTS (SELECT 1 FROM \(table.quoted) WHERE \"\" IS NOT NULL)",
                                      operation: Self.describing) != 0 {
                found.append("\(String(reflecting: table.name)).\"\" (an empty name)")
            }
        }
        return found
    }

    func tableDescription(ofType itemType: String) throws -> TableDescription? {
        guard let table = try checkedSchema.tables[itemType], !table.isCreatedByStore else { return nil }
        let withoutRowid = try connection.integer(
            "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?1", [.text(itemType)],
            operation: Self.describing) != 0
        // UNIQUE constraints, and secondary indexes. Generated columns are not recreated, so an
        // index or constraint that lists one is left out (the notes name it), never built over a
        // column the copy lacks.
        let generated = try generatedColumns(of: itemType)
        var uniqueColumns: Set<String> = []
        var uniqueConstraints: [[String]] = []
        var indexes: [TableDescription.Index] = []
        var lists: [(name: String, unique: Bool, origin: String, partial: Bool)] = []
        try connection.withStatement("SELECT name, \"unique\", origin, partial FROM pragma_index_list(?1, 'main') ORDER BY seq DESC",
                                     [.text(itemType)]) { statement in
            while try statement.step(Self.describing) {
                lists.append((statement.text(0), statement.int64(1) != 0, statement.text(2), statement.int64(3) != 0))
            }
        }
        // A PRIMARY KEY index is the key of a table keyed by its columns; in a table keyed by its
        // rowid (a REAL key) it is a uniqueness the copy must keep, as UNIQUE.
        let keyedByColumn = !table.key.isRowid
        for list in lists where (list.origin != "pk" || !keyedByColumn) && !list.partial {
            var columns: [String] = []
            var expression = false
            try connection.withStatement("SELECT name FROM pragma_index_info(?1, 'main') ORDER BY seqno", [.text(list.name)]) { statement in
                while try statement.step(Self.describing) {
                    if statement.storageClass(0) == nil { expression = true } else { columns.append(statement.text(0)) }
                }
            }
            if expression || columns.isEmpty || columns.contains(where: generated.contains) { continue }
            if list.origin == "u" || list.origin == "pk" {
                if columns.count == 1 { uniqueColumns.insert(columns[0]) } else { uniqueConstraints.append(columns) }
            } else {
                indexes.append(TableDescription.Index(name: list.name, columns: columns, unique: list.unique))
            }
        }
        var key: TableDescription.Column?
        var keyPosition = 0
        var columns: [TableDescription.Column] = []
        var declaresKey = false
        let keyName: String? = if case .column(let name, _, _) = table.key { name } else { nil }
        try connection.withStatement("SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo(?1, 'main') ORDER BY cid",
                                     [.text(itemType)]) { statement in
            while try statement.step(Self.describing) {
                guard statement.int64(4) == 0 else { continue }
                if statement.int64(3) > 0 { declaresKey = true }
                let name = statement.text(0)
                let column = TableDescription.Column(name: name, declaredType: statement.text(1),
                                                     notNull: statement.int64(2) != 0, unique: uniqueColumns.contains(name))
                if name == keyName {
                    key = column
                    keyPosition = columns.count
                } else {
                    columns.append(column)
                }
            }
        }
        // Columns declared with the name of a recorded PostgreSQL enum type (see EnumTypeTable).
        let typeNames = Set(((key.map { [$0] } ?? []) + columns).map { column in
            column.declaredType.hasSuffix("[]") ? String(column.declaredType.dropLast(2)) : column.declaredType
        })
        let enumTypes = try EnumTypeTable.types(named: typeNames, connection)
        // A composite key's columns stay among the columns, in table order; a rowid table that
        // declares no PRIMARY KEY at all is keyless (its rowids are no declared key).
        var description = TableDescription(itemType: itemType, key: key, columns: columns, indexes: indexes,
                                uniqueConstraints: uniqueConstraints,
                                withoutRowid: withoutRowid, keyPosition: keyPosition, dialect: .sqlite,
                                primaryKey: table.key.components.map(\.name),
                                isKeyless: table.key.isRowid && !declaresKey)
        description.enumTypes = enumTypes
        return description
    }

    /// The names of the generated columns of `table` (`VIRTUAL` or `STORED`).
    func generatedColumns(of table: String) throws -> Set<String> {
        try connection.withStatement("SELECT name FROM pragma_table_xinfo(?1, 'main') WHERE hidden IN (2, 3)",
                                     [.text(table)]) { statement in
            var names: Set<String> = []
            while try statement.step(Self.describing) { names.insert(statement.text(0)) }
            return names
        }
    }
}
