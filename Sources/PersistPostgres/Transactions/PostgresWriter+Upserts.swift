import Persist

/// The statements of a guarded insert or save, with `ON CONFLICT (key)` or, for a table that
/// must do without it (see ``TableSchema/avoidsConflictClause``), an `UPDATE` and an `INSERT`
/// guarded by the key.
extension PostgresWriter {
    /// The SQL of the statements writing `item` (the key `$1`, then the `given` columns from
    /// `$2`), each returning the row it wrote; and whether a save sets any column.
    ///
    /// With `ON CONFLICT`, one upsert. Without, a save first updates the row, and the insert that
    /// follows in the same round trip finds the key taken then and does nothing; an insert only
    /// inserts unless the key is taken.
    func upsertStatements(_ item: Item, _ table: TableSchema, _ given: [ColumnSchema], replacing: Bool)
        -> (statements: [String], setsColumns: Bool) {
        // PostgreSQL sets an identity column GENERATED ALWAYS only to DEFAULT: a save keeps its value,
        // and the read-back refuses an item that gives it another.
        let cleared = table.columns.filter { !$0.isIdentityAlways && item.attributes[$0.attribute] == nil }
            .map { "\($0.quoted) = NULL" }
        // A given column's new value: EXCLUDED's in an upsert, its parameter in an UPDATE.
        func assignments(_ value: (Int, ColumnSchema) -> String) -> String {
            (given.enumerated().filter { !$1.isIdentityAlways }.map { "\($1.quoted) = \(value($0, $1))" } + cleared)
                .joined(separator: ", ")
        }
        let setsColumns = !cleared.isEmpty || given.contains { !$0.isIdentityAlways }
        let returning = " RETURNING \(table.selectList)"
        guard table.avoidsConflictClause else {
            let conflict = replacing && setsColumns
                ? "DO UPDATE SET \(assignments { _, column in "EXCLUDED.\(column.quoted)" })" : "DO NOTHING"
            let insert = TableSchema.insert(into: table.qualified, key: table.rowKey, columns: given)
            return (["\(insert) ON CONFLICT (\(table.rowKey.columnList)) \(conflict)\(returning)"], setsColumns)
        }
        let insert = TableSchema.insertUnlessTaken(into: table.qualified, key: table.rowKey, columns: given) + returning
        guard replacing && setsColumns else { return ([insert], setsColumns) }
        let update = "UPDATE \(table.qualified) SET \(assignments { index, _ in "$\(index + 2)" }) "
            + "WHERE \(table.rowKey.match("$1"))\(returning)"
        return ([update, insert], setsColumns)
    }

    /// Whether the last statement failed on the `PRIMARY KEY` of `table`.
    func violatesKey(of table: TableSchema) -> Bool {
        guard let failure = transaction.session.connection.lastFailure else { return false }
        return failure.table == table.name && schema.isPrimaryKey(failure)
    }

    /// The error for a save that found no row with its key, and whose insert then met the row of
    /// another session that inserted the key meanwhile and committed.
    func concurrentInsert(_ item: Item, _ table: TableSchema, _ error: DataStoreError) -> DataStoreError {
        DataStoreError(
            .conflict,
            "another session inserted a row with the key of \(item.reference) into table \(table.qualified) of "
                + "PostgreSQL at \(location) while it was saved (the save found no row to update, then met the "
                + "other's insert); nothing was written for it. Retry the block, whose save will update that row",
            path: location, engineCode: error.engineCode, engineMessage: error.engineMessage, items: [item.reference])
    }
}
