import Persist

/// Compiles a whole `DataStoreRequest` (filter, order, offset and limit) into one SELECT, or one
/// COUNT, over the table of its item type; `nil` when PostgreSQL cannot evaluate it exactly, and
/// the store must (see ``PredicateCompiler``).
enum RequestCompiler {
    /// `SELECT key, columns… FROM table WHERE … ORDER BY … LIMIT $n OFFSET $m`.
    static func select(_ request: DataStoreRequest, from table: TableSchema) -> CompiledQuery? {
        select(request, from: table, selecting: table.selectList, parameters: SQLParameters()).map {
            CompiledQuery(sql: $0.sql, parameters: $0.parameters.values, matchesNothing: $0.matchesNothing)
        }
    }

    /// `SELECT list FROM table WHERE … ORDER BY … LIMIT $n OFFSET $m`, numbering its parameters
    /// after those already in `parameters`.
    static func select(_ request: DataStoreRequest, from table: TableSchema, selecting list: String,
                       parameters: SQLParameters) -> (sql: String, parameters: SQLParameters, matchesNothing: Bool)? {
        var compiler = PredicateCompiler(table: table, parameters: parameters)
        guard let condition = request.filter.map({ compiler.filter($0) }) ?? .always else { return nil }
        var parameters = compiler.parameters
        var sql = "SELECT \(list) FROM \(table.qualified)"
        if case .sql(let expression) = condition { sql += " WHERE \(expression)" }
        if request.ordering == .sorted {
            var terms: [String] = []
            for descriptor in request.sortDescriptors {
                guard let column = table.column(descriptor.key) else { continue }
                guard let columnTerms = OrderTerms.terms(column, ascending: descriptor.ascending) else { return nil }
                terms.append(contentsOf: columnTerms)
            }
            terms.append(table.keyOrder)
            sql += " ORDER BY " + terms.joined(separator: ", ")
        }
        appendWindow(request, to: &sql, &parameters)
        return (sql, parameters, condition == .never || request.limit == 0)
    }

    /// The number of items ``select(_:from:)`` returns, counted by PostgreSQL.
    static func count(_ request: DataStoreRequest, from table: TableSchema) -> CompiledQuery? {
        var compiler = PredicateCompiler(table: table)
        guard let condition = request.filter.map({ compiler.filter($0) }) ?? .always else { return nil }
        var parameters = compiler.parameters
        var filter = ""
        if case .sql(let expression) = condition { filter = " WHERE \(expression)" }
        let sql: String
        if request.offset > 0 || request.limit != nil {
            var inner = "SELECT 1 FROM \(table.qualified)\(filter)"
            appendWindow(request, to: &inner, &parameters)
            sql = "SELECT count(*) FROM (\(inner)) AS persist_window"
        } else {
            sql = "SELECT count(*) FROM \(table.qualified)\(filter)"
        }
        return CompiledQuery(sql: sql, parameters: parameters.values, matchesNothing: condition == .never || request.limit == 0)
    }

    /// Every row, by identifier: what the store evaluates a request over when PostgreSQL cannot.
    static func all(from table: TableSchema) -> CompiledQuery {
        CompiledQuery(sql: "SELECT \(table.selectList) FROM \(table.qualified) ORDER BY \(table.keyOrder)",
                      parameters: [], matchesNothing: false)
    }

    private static func appendWindow(_ request: DataStoreRequest, to sql: inout String, _ parameters: inout SQLParameters) {
        if let limit = request.limit { sql += " LIMIT \(parameters.add(.int8(Int64(limit))))" }
        if request.offset > 0 { sql += " OFFSET \(parameters.add(.int8(Int64(request.offset))))" }
    }
}
