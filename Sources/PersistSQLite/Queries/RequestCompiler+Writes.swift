import Persist

extension RequestCompiler {
    /// One `DELETE` of the rows a request selects (see ``selection(_:of:)``).
    static func delete(_ request: DataStoreRequest, from table: TableSchema) -> CompiledQuery {
        let (clause, bindings, nothing) = selection(request, of: table)
        return CompiledQuery(sql: "DELETE FROM \(table.quoted)\(clause)", bindings: bindings, matchesNothing: nothing)
    }

    /// One `UPDATE` setting `assignments` on the rows a request selects.
    static func update(_ request: DataStoreRequest, of table: TableSchema,
                       setting assignments: [(column: ColumnSchema, binding: SQLBinding)]) -> CompiledQuery {
        let (clause, bindings, nothing) = selection(request, of: table)
        let list = assignments.map { "\($0.column.quoted) = ?" }.joined(separator: ", ")
        return CompiledQuery(sql: "UPDATE OR ABORT \(table.quoted) SET \(list)\(clause)",
                             bindings: assignments.map(\.binding) + bindings, matchesNothing: nothing)
    }

    /// The `WHERE` clause choosing the rows a request selects: its filter alone without an offset
    /// or limit, otherwise `key IN (SELECT key … ORDER BY … LIMIT ? OFFSET ?)`, so that the sort
    /// order chooses the window exactly as it does for `items(forRequest:)`. A key is unique under
    /// its own collation, so the `IN` list matches exactly the rows the subquery chose.
    private static func selection(_ request: DataStoreRequest, of table: TableSchema) -> (String, [SQLBinding], Bool) {
        if request.offset == 0 && request.limit == nil {
            var predicate = PredicateCompiler(table: table)
            let condition = request.filter.map { predicate.condition($0) } ?? .always
            if case .sql(let expression) = condition { return (" WHERE \(expression)", predicate.bindings, false) }
            return ("", [], condition == .never)
        }
        let inner = select(request, from: table, selecting: table.key.sql)
        return (" WHERE \(table.key.sql) IN (\(inner.sql))", inner.bindings, inner.matchesNothing)
    }
}
