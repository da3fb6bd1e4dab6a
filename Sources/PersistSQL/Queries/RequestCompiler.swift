import Persist

/// Compiles a whole `DataStoreRequest` (filter, order, offset and limit) into one statement over
/// the table of its item type: a SELECT, a COUNT, a DELETE or an UPDATE. `nil` when the engine
/// cannot evaluate the request exactly (see ``PredicateCompiler``), and the store must.
///
/// ```swift
/// guard let query = RequestCompiler.select(request, from: table, dialect: dialect) else { return try evaluateInStore() }
/// ```
package enum RequestCompiler {
    /// `SELECT key, columns… FROM table WHERE … ORDER BY … <window>`; with `list`, those result
    /// columns instead. Its parameters come after those already in `parameters`.
    package static func select<Dialect: SQLDialect>(
        _ request: DataStoreRequest, from table: Dialect.Table, dialect: Dialect, selecting list: String? = nil,
        parameters: SQLParameters<Dialect.Parameter>? = nil
    ) -> (sql: String, parameters: SQLParameters<Dialect.Parameter>, matchesNothing: Bool)? {
        var compiler = PredicateCompiler(dialect: dialect, table: table, parameters: parameters)
        guard let condition = request.filter.map({ compiler.filter($0) }) ?? .always else { return nil }
        var parameters = compiler.parameters
        var sql = "SELECT \(list ?? table.selectList) FROM \(table.sqlName)"
        if case .sql(let expression) = condition { sql += " WHERE \(expression)" }
        if request.ordering == .sorted {
            var terms: [String] = []
            for descriptor in request.sortDescriptors {
                guard let column = table.column(descriptor.key) else { continue }
                guard let columnTerms = dialect.orderTerms(column, ascending: descriptor.ascending, &parameters) else {
                    return nil
                }
                terms += columnTerms
            }
            terms.append(table.keyOrder)
            sql += " ORDER BY " + terms.joined(separator: ", ")
        }
        sql += window(request, dialect, &parameters)
        return (sql, parameters, condition == .never || request.limit == 0)
    }

    /// ``select(_:from:dialect:selecting:parameters:)`` as one compiled statement.
    package static func select<Dialect: SQLDialect>(
        _ request: DataStoreRequest, from table: Dialect.Table, dialect: Dialect, selecting list: String? = nil
    ) -> CompiledQuery<Dialect.Parameter>? {
        select(request, from: table, dialect: dialect, selecting: list, parameters: nil).map {
            CompiledQuery(sql: $0.sql, parameters: $0.parameters.values, matchesNothing: $0.matchesNothing)
        }
    }

    /// The number of items ``select(_:from:dialect:selecting:)`` returns, counted by the engine.
    package static func count<Dialect: SQLDialect>(
        _ request: DataStoreRequest, from table: Dialect.Table, dialect: Dialect
    ) -> CompiledQuery<Dialect.Parameter>? {
        var compiler = PredicateCompiler(dialect: dialect, table: table)
        guard let condition = request.filter.map({ compiler.filter($0) }) ?? .always else { return nil }
        var parameters = compiler.parameters
        var filter = ""
        if case .sql(let expression) = condition { filter = " WHERE \(expression)" }
        let sql: String
        if request.offset > 0 || request.limit != nil {
            let inner = "SELECT 1 FROM \(table.sqlName)\(filter)" + window(request, dialect, &parameters)
            sql = "SELECT count(*) FROM (\(inner)) AS persist_window"
        } else {
            sql = "SELECT count(*) FROM \(table.sqlName)\(filter)"
        }
        return CompiledQuery(sql: sql, parameters: parameters.values, matchesNothing: condition == .never || request.limit == 0)
    }

    /// One `DELETE` of the rows a request selects (see ``selection(_:of:dialect:parameters:)``).
    package static func delete<Dialect: SQLDialect>(
        _ request: DataStoreRequest, from table: Dialect.Table, dialect: Dialect
    ) -> CompiledQuery<Dialect.Parameter>? {
        var parameters = dialect.parameters()
        guard let (clause, nothing) = selection(request, of: table, dialect: dialect, parameters: &parameters) else {
            return nil
        }
        return CompiledQuery(sql: "DELETE FROM \(table.sqlName)\(clause)", parameters: parameters.values,
                             matchesNothing: nothing)
    }

    /// One `UPDATE` setting each column to its parameter on the rows a request selects.
    package static func update<Dialect: SQLDialect>(
        _ request: DataStoreRequest, of table: Dialect.Table, dialect: Dialect,
        setting assignments: [(column: Dialect.Table.Column, parameter: Dialect.Parameter)]
    ) -> CompiledQuery<Dialect.Parameter>? {
        var parameters = dialect.parameters()
        let list = assignments.map { "\($0.column.quoted) = \(parameters.add($0.parameter))" }.joined(separator: ", ")
        guard let (clause, nothing) = selection(request, of: table, dialect: dialect, parameters: &parameters) else {
            return nil
        }
        return CompiledQuery(sql: "\(dialect.updateVerb) \(table.sqlName) SET \(list)\(clause)",
                             parameters: parameters.values, matchesNothing: nothing)
    }

    /// The `WHERE` clause choosing the rows a request selects: its filter alone without an offset
    /// or limit, otherwise `(key) IN (SELECT key … ORDER BY … <window>)`, so that the sort order
    /// chooses the window exactly as it does for `items(forRequest:)`. A key is unique under its
    /// own comparison, so the `IN` list matches exactly the rows the subquery chose.
    private static func selection<Dialect: SQLDialect>(
        _ request: DataStoreRequest, of table: Dialect.Table, dialect: Dialect,
        parameters: inout SQLParameters<Dialect.Parameter>
    ) -> (clause: String, matchesNothing: Bool)? {
        if request.offset == 0 && request.limit == nil {
            var compiler = PredicateCompiler(dialect: dialect, table: table, parameters: parameters)
            guard let condition = request.filter.map({ compiler.filter($0) }) ?? .always else { return nil }
            parameters = compiler.parameters
            if case .sql(let expression) = condition { return (" WHERE \(expression)", false) }
            return ("", condition == .never)
        }
        guard let inner = select(request, from: table, dialect: dialect, selecting: table.keySQL, parameters: parameters)
        else { return nil }
        parameters = inner.parameters
        // Parenthesized, a key of several columns is one row value.
        return (" WHERE (\(table.keySQL)) IN (\(inner.sql))", inner.matchesNothing)
    }

    private static func window<Dialect: SQLDialect>(
        _ request: DataStoreRequest, _ dialect: Dialect, _ parameters: inout SQLParameters<Dialect.Parameter>
    ) -> String {
        guard request.offset > 0 || request.limit != nil else { return "" }
        return dialect.window(limit: request.limit, offset: request.offset, &parameters)
    }
}
