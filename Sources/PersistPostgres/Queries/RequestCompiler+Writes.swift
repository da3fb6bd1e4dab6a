import Persist

extension RequestCompiler {
    /// One `DELETE` of the rows a request selects (see ``selection(_:of:parameters:)``); `nil` when
    /// PostgreSQL cannot evaluate the request exactly, and the store must.
    static func delete(_ request: DataStoreRequest, from table: TableSchema) -> CompiledQuery? {
        var parameters = SQLParameters()
        guard let (clause, nothing) = selection(request, of: table, parameters: &parameters) else { return nil }
        return CompiledQuery(sql: "DELETE FROM \(table.qualified)\(clause)", parameters: parameters.values,
                             matchesNothing: nothing)
    }

    /// One `UPDATE` setting `assignments` (column, parameter) on the rows a request selects; `nil`
    /// when PostgreSQL cannot evaluate the request exactly.
    static func update(_ request: DataStoreRequest, of table: TableSchema,
                       setting assignments: [(column: ColumnSchema, parameter: PGValue)]) -> CompiledQuery? {
        var parameters = SQLParameters()
        let list = assignments.map { "\($0.column.quoted) = \(parameters.add($0.parameter))" }.joined(separator: ", ")
        guard let (clause, nothing) = selection(request, of: table, parameters: &parameters) else { return nil }
        return CompiledQuery(sql: "UPDATE \(table.qualified) SET \(list)\(clause)", parameters: parameters.values,
                             matchesNothing: nothing)
    }

    /// The most keys one key-list statement names (see ``delete(ids:from:)``).
    static let keyListLength = 1_000

    /// `DELETE`s of the rows with identifiers `ids`, `WHERE key IN ($1, …)` with at most
    /// ``keyListLength`` keys each, for what the store selected itself. Identifiers the key
    /// cannot hold are no row's, and left out.
    static func delete(ids: [ItemID], from table: TableSchema) -> [CompiledQuery] {
        keyLists(ids, of: table, after: SQLParameters()) { "DELETE FROM \(table.qualified) WHERE \($0)" }
    }

    /// `UPDATE`s setting `assignments` on the rows with identifiers `ids`, as ``delete(ids:from:)``.
    static func update(ids: [ItemID], of table: TableSchema,
                       setting assignments: [(column: ColumnSchema, parameter: PGValue)]) -> [CompiledQuery] {
        var parameters = SQLParameters()
        let list = assignments.map { "\($0.column.quoted) = \(parameters.add($0.parameter))" }.joined(separator: ", ")
        return keyLists(ids, of: table, after: parameters) { "UPDATE \(table.qualified) SET \(list) WHERE \($0)" }
    }

    /// One statement per ``keyListLength`` keys: `statement` of `key IN (…)`, its key parameters
    /// after `first`'s.
    private static func keyLists(_ ids: [ItemID], of table: TableSchema, after first: SQLParameters,
                                 _ statement: (String) -> String) -> [CompiledQuery] {
        let keys = ids.compactMap(table.key.type.encodeID)
        return stride(from: 0, to: keys.count, by: keyListLength).map { start in
            var parameters = first
            let list = keys[start..<min(start + keyListLength, keys.count)].map { parameters.add($0) }
            let sql = statement("\(table.key.quoted) IN (\(list.joined(separator: ", ")))")
            return CompiledQuery(sql: sql, parameters: parameters.values, matchesNothing: false)
        }
    }

    /// The `WHERE` clause choosing the rows a request selects: its filter alone without an offset
    /// or limit, otherwise `key IN (SELECT key … ORDER BY … LIMIT $n OFFSET $m)`, so that the sort
    /// order chooses the window exactly as it does for `items(forRequest:)`. A key is unique under
    /// its own equality, so the `IN` list matches exactly the rows the subquery chose.
    private static func selection(_ request: DataStoreRequest, of table: TableSchema,
                                  parameters: inout SQLParameters) -> (String, Bool)? {
        var compiler = PredicateCompiler(table: table, parameters: parameters)
        guard let condition = request.filter.map({ compiler.filter($0) }) ?? .always else { return nil }
        if request.offset == 0 && request.limit == nil {
            parameters = compiler.parameters
            if case .sql(let expression) = condition { return (" WHERE \(expression)", false) }
            return ("", condition == .never)
        }
        guard let inner = select(request, from: table, selecting: table.key.quoted, parameters: parameters) else {
            return nil
        }
        parameters = inner.parameters
        return (" WHERE \(table.key.quoted) IN (\(inner.sql))", inner.matchesNothing)
    }
}
