import Persist

/// Compiles a whole `DataStoreRequest` (filter, order, offset and limit) into one SELECT, or into
/// one COUNT, over the table of its item type.
enum RequestCompiler {
    /// `SELECT key, columns… FROM table WHERE … ORDER BY … LIMIT ? OFFSET ?`; with `list`, those
    /// result columns instead of the key and every column.
    static func select(_ request: DataStoreRequest, from table: TableSchema, selecting list: String? = nil) -> CompiledQuery {
        var predicate = PredicateCompiler(table: table)
        let condition = request.filter.map { predicate.condition($0) } ?? .always
        var bindings = predicate.bindings
        var sql = "SELECT \(list ?? table.selectList) FROM \(table.quoted)"
        if case .sql(let expression) = condition { sql += " WHERE \(expression)" }
        if request.ordering == .sorted {
            sql += " ORDER BY " + orderTerms(request.sortDescriptors, table, &bindings).joined(separator: ", ")
        }
        appendWindow(request, to: &sql, &bindings)
        return CompiledQuery(sql: sql, bindings: bindings, matchesNothing: condition == .never || request.limit == 0)
    }

    /// The number of items ``select(_:from:)`` returns, counted by SQLite.
    static func count(_ request: DataStoreRequest, from table: TableSchema) -> CompiledQuery {
        var predicate = PredicateCompiler(table: table)
        let condition = request.filter.map { predicate.condition($0) } ?? .always
        var bindings = predicate.bindings
        var filter = ""
        if case .sql(let expression) = condition { filter = " WHERE \(expression)" }
        let sql: String
        if request.offset > 0 || request.limit != nil {
            var inner = "SELECT 1 FROM \(table.quoted)\(filter)"
            appendWindow(request, to: &inner, &bindings)
            sql = "SELECT count(*) FROM (\(inner))"
        } else {
            sql = "SELECT count(*) FROM \(table.quoted)\(filter)"
        }
        return CompiledQuery(sql: sql, bindings: bindings, matchesNothing: condition == .never || request.limit == 0)
    }

    private static func appendWindow(_ request: DataStoreRequest, to sql: inout String, _ bindings: inout [SQLBinding]) {
        guard request.offset > 0 || request.limit != nil else { return }
        sql += " LIMIT ? OFFSET ?"
        bindings.append(.int(request.limit.map { Int64($0) } ?? -1))
        bindings.append(.int(Int64(request.offset)))
    }

    /// The ORDER BY terms: each sort descriptor in turn, then the identifier ascending.
    ///
    /// SQLite already orders NULL < numbers < text < blobs, and numbers exactly; what it lacks is
    /// added here: NaN (the marker text) first among numbers, and arrays and objects all tied.
    private static func orderTerms(
        _ descriptors: [DataStoreSortDescriptor], _ table: TableSchema, _ bindings: inout [SQLBinding]
    ) -> [String] {
        var terms: [String] = []
        for descriptor in descriptors {
            guard let index = table.columnIndex[descriptor.key] else { continue }
            let column = table.columns[index]
            let direction = descriptor.ascending ? "" : " DESC"
            switch column.storage {
            case .typed(let kind) where kind.isRealLike:
                // NULL, then NaN (`<> 'NaN'` is 0), then every other number (1).
                bindings.append(.text(ValueCodec.nanMarker))
                terms.append("\(column.quoted) <> ?\(direction)")
                terms.append("\(column.quoted)\(direction)")
            case .typed(let kind) where !kind.isOrdered:
                terms.append("\(column.quoted) IS NOT NULL\(direction)")
            case .typed:
                terms.append("\(column.quoted)\(direction)")
            case .mixed:
                // By comparison class (NaN just below the other numbers), then within it.
                terms.append("\(MixedCodec.rank(column.quoted))\(direction)")
                terms.append("\(MixedCodec.sortKey(column.quoted))\(direction)")
            case .legacy:
                terms.append("\(column.quoted)\(column.needsBinaryCollation ? " COLLATE BINARY" : "")\(direction)")
            }
        }
        terms.append(table.keyOrder)
        return terms
    }
}
