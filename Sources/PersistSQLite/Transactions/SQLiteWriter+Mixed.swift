import Persist

extension SQLiteWriter {
    /// Widens the column at `index` to a mixed column (see ``SchemaEditor/widenToMixed(columnAt:of:in:path:)``)
    /// and notes it once for the log written at commit.
    func widen(columnAt index: Int, of table: TableSchema) throws -> TableSchema {
        let name = table.columns[index].name
        let widened = try editor.widenToMixed(columnAt: index, of: table, in: &schema, path: path)
        noteSchemaChange("let column \(String(reflecting: name)) of table \(String(reflecting: table.name)) hold "
            + "values of every kind, each tagged with its kind")
        return widened
    }
}
