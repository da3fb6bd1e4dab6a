import Persist

extension SchemaEditor {
    /// Makes a column the store created hold values of every kind: each value it holds is
    /// rewritten in the encoding of ``MixedCodec`` and the column is recorded as `mixed`.
    ///
    /// A typed column widens when it meets a value of another kind. A column with no declared type
    /// in a table the store created and no recorded kind was widened by an earlier version of the
    /// store (which let numbers, strings and bytes share a column by forgetting its kind): it
    /// widens the same way when it meets a value it cannot keep, its BLOBs becoming tagged bytes.
    func widenToMixed(columnAt index: Int, of table: TableSchema, in schema: inout DatabaseSchema,
                      path: String) throws -> TableSchema {
        let column = table.columns[index]
        let operation = "Letting a column hold values of every kind"
        // A column declared with a type (NUMERIC, for decimals) would convert mixed values: it is
        // made again without one, each value rewritten into it.
        let declared = try !declaredType(of: column.name, in: table).isEmpty
        let projection = table.projection(onto: column)
        let decoder = RowDecoder(table: projection, path: path)
        var rewrites: [(id: ItemID, binding: SQLBinding)] = []
        try connection.withStatement(
            "SELECT \(projection.selectList) FROM \(table.quoted) WHERE \(column.quoted) IS NOT NULL"
        ) { statement in
            while try statement.step(operation) {
                let item = try decoder.item(statement)
                guard let value = item.attributes[column.name] else { continue }
                let current: SQLBinding? = switch column.storage {
                case .typed: ValueCodec.typedBinding(value)
                case .legacy: ValueCodec.legacyBinding(value)
                case .mixed: MixedCodec.binding(value)
                }
                let mixed = MixedCodec.binding(value)
                if current != mixed || declared { rewrites.append((item.id, mixed)) }
            }
        }
        // The declared unique indexes over the column are made again in the form that compares
        // mixed values; meanwhile no rewritten row can meet one not rewritten yet. A column that
        // is retyped loses every index over it.
        let uniqueIndexes = declared ? indexes(over: column.name, of: table, in: schema)
            : uniqueIndexes(over: column.name, of: table, in: schema)
        for declared in uniqueIndexes { try drop(declared) }
        var target = column.quoted
        if declared {
            target = SQLName.quoted(column.name + " persist_widened")
            try connection.executeOnce("ALTER TABLE \(table.quoted) ADD COLUMN \(target)", operation: operation)
        }
        // Longest first: a rewrite only puts a tag before a BLOB, so a row whose new value another
        // row still holds (a UNIQUE constraint of a recreated table would refuse it) comes after it.
        rewrites.sort { Self.length(of: $0.binding) > Self.length(of: $1.binding) }
        let first = table.key.parameterCount + 1
        let update = "UPDATE OR ABORT \(table.quoted) SET \(target) = ?\(first) WHERE \(table.keyCondition)"
        for (id, binding) in rewrites {
            guard let key = table.keyBindings(for: id) else { continue }
            try connection.execute(update, key + [binding], operation: operation)
        }
        if declared {
            try connection.executeOnce("ALTER TABLE \(table.quoted) DROP COLUMN \(column.quoted)", operation: operation)
            try connection.executeOnce("ALTER TABLE \(table.quoted) RENAME COLUMN \(target) TO \(column.quoted)",
                                       operation: operation)
        }
        let widened = ColumnSchema(name: column.name, storage: .mixed)
        try record(table.name, [widened], in: &schema)
        try markSchemaChanged(operation: operation)
        let replaced = table.replacing(columnAt: index, with: widened)
        schema.tables[table.name] = replaced
        for declared in uniqueIndexes { try create(declared, on: replaced, in: &schema) }
        return replaced
    }

    /// The type the column `name` of `table` is declared with; empty for none.
    private func declaredType(of name: String, in table: TableSchema) throws -> String {
        var type = ""
        try connection.withStatement("SELECT type FROM pragma_table_info(?1, 'main') WHERE name = ?2",
                                     [.text(table.name), .text(name)]) { statement in
            if try statement.step("Reading a column's type") { type = statement.text(0) }
        }
        return type
    }

    /// The size of the value a column holds before it widens, as far as the order of rewrites goes.
    private static func length(of binding: SQLBinding) -> Int {
        if case .blob(let bytes) = binding { return bytes.count }
        return 0
    }

    /// Whether the column must widen to hold `value`: a typed column meeting another kind, or a
    /// column an earlier version widened (see ``widenToMixed(columnAt:of:in:path:)``) meeting a
    /// value only a mixed column keeps.
    static func mustWiden(_ column: ColumnSchema, of table: TableSchema, toHold value: Value) -> Bool {
        switch column.storage {
        case .typed(let kind):
            guard let given = ColumnKind(of: value) else { return false }
            return given != kind
        case .legacy(let affinity):
            return affinity == .none && !column.needsBinaryCollation && table.isCreatedByStore
                && ValueCodec.legacyBinding(value) == nil
        case .mixed:
            return false
        }
    }
}

extension TableSchema {
    /// Whether the store created the table: it is keyed by ``DatabaseSchema/createdKeyColumn``.
    var isCreatedByStore: Bool {
        if case .column(let name, .none, false) = key { return name == DatabaseSchema.createdKeyColumn }
        return false
    }
}
