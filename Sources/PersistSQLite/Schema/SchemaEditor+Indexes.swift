import Persist
import PersistSQL

extension SchemaEditor {
    private static let indexing = "Creating an index"

    /// Records a declared index in the store's table of declared indexes, creating that table the
    /// first time, and makes every connection load the schema again.
    func record(_ declared: DeclaredIndex, ofType itemType: String, in schema: inout DatabaseSchema) throws {
        let table = SQLName.quoted(DatabaseSchema.indexTable)
        if !schema.hasIndexTable {
            try connection.executeOnce(
                "CREATE TABLE IF NOT EXISTS \(table) (position INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, "
                    + "table_name TEXT NOT NULL, attributes BLOB NOT NULL, is_unique INTEGER NOT NULL)",
                operation: Self.indexing)
            schema.hasIndexTable = true
            schema.takenNames[DatabaseSchema.indexTable] = DatabaseSchema.indexTable
        }
        try connection.execute(
            "INSERT INTO \(table) (name, table_name, attributes, is_unique) VALUES (?1, ?2, ?3, ?4)",
            [.text(declared.name), .text(itemType), .blob(SchemaLoader.encodeAttributes(declared.attributes)),
             .int(declared.isUnique ? 1 : 0)],
            operation: Self.indexing)
        schema.declaredIndexes[itemType, default: []].append(declared)
        // The declaration is a row: without a table to index yet, no SQL tells other connections.
        try markSchemaChanged(operation: Self.indexing)
    }

    /// Creates the SQL index of a declaration whose columns all exist in `table`. Columns declared
    /// with another collation are indexed with BINARY, the collation of Persist's comparisons. A
    /// unique index indexes a mixed column by ``comparableForm(_:)``.
    func create(_ declared: DeclaredIndex, on table: TableSchema, in schema: inout DatabaseSchema) throws {
        // Attribute columns, or columns of a composite key.
        let terms = declared.attributes.compactMap { name -> String? in
            if let position = table.columnIndex[name] {
                let column = table.columns[position]
                if declared.isUnique, case .mixed = column.storage { return Self.comparableForm(column.quoted) }
                return column.quoted + (column.needsBinaryCollation ? " COLLATE BINARY" : "")
            }
            return table.key.components.first { $0.name == name }.map { $0.quoted + ($0.needsBinaryCollation ? " COLLATE BINARY" : "") }
        }
        guard terms.count == declared.attributes.count else { return }
        let list = terms.joined(separator: ", ")
        try connection.executeOnce(
            "CREATE \(declared.isUnique ? "UNIQUE " : "")INDEX \(SQLName.quoted(declared.name)) ON \(table.quoted) (\(list))",
            operation: Self.indexing)
        schema.takenNames[SQLName.folded(declared.name)] = declared.name
    }

    /// A mixed column's values as a unique index compares them: a date by its tag and order key
    /// alone (the bits after them tell -0.0 from 0.0, and one NaN from another, which are equal to
    /// predicates); a decimal as the integer or double equal to it, if any
    /// (`persist_decimal_number`, so only Persist's connections write to such a table); every other
    /// value as it is stored, which is already as predicates compare it.
    static func comparableForm(_ column: String) -> String {
        let dateTag = MixedCodec.hex(MixedCodec.dateTag)
        let decimalTag = MixedCodec.hex(MixedCodec.decimalTag)
        return "(CASE WHEN typeof(\(column)) <> 'blob' THEN \(column) "
            + "WHEN substr(\(column), 1, 1) = x'\(dateTag)' THEN substr(\(column), 1, \(MixedCodec.dateKeyLength)) "
            + "WHEN substr(\(column), 1, 1) = x'\(decimalTag)' THEN \(SQLiteConnection.decimalNumberFunction)(\(column)) "
            + "ELSE \(column) END)"
    }

    /// The declared unique indexes of `table` made over the column named `column`: made again by
    /// ``create(_:on:in:)`` once the column widens, which indexes it in another form.
    func uniqueIndexes(over column: String, of table: TableSchema, in schema: DatabaseSchema) -> [DeclaredIndex] {
        (schema.declaredIndexes[table.name] ?? []).filter { declared in
            declared.isUnique && declared.attributes.contains(column) && schema.takenNames[SQLName.folded(declared.name)] != nil
        }
    }

    /// Every declared index of `table` made over the column named `column`.
    func indexes(over column: String, of table: TableSchema, in schema: DatabaseSchema) -> [DeclaredIndex] {
        (schema.declaredIndexes[table.name] ?? []).filter { declared in
            declared.attributes.contains(column) && schema.takenNames[SQLName.folded(declared.name)] != nil
        }
    }

    /// Drops the SQL index of a declaration, to be made again.
    func drop(_ declared: DeclaredIndex) throws {
        try connection.executeOnce("DROP INDEX IF EXISTS \(SQLName.quoted(declared.name))", operation: Self.indexing)
    }
}
