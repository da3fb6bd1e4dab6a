import Persist
import PersistSQL

extension PostgresReader {
    /// Over an integer column (`smallint`, `integer`, `bigint`), one statement computes the exact
    /// sum (`numeric`), the count and the extremes of the rows the request selects, window
    /// included; Swift turns them into the shared semantics (an Int64 sum stays an integer, a
    /// larger one is the correctly rounded double, the average is that double over the count,
    /// NULL — a missing attribute — is skipped, and the extremes of integers have no ties to
    /// break). Any other column, or a request PostgreSQL cannot select exactly, folds the
    /// selected items with the shared accumulator: the default's answer by construction.
    func aggregate(_ function: AggregateFunction, of attribute: String, matching request: DataStoreRequest) throws -> Value? {
        let outcome: SQLAggregate? = try withCurrentSchema(request.itemType) { table in
            guard let column = table.column(attribute), [.smallint, .integer, .bigint].contains(column.type) else {
                return .foldItems
            }
            var selection = request
            if request.offset == 0 && request.limit == nil { selection.ordering = .unspecified }
            guard let inner = RequestCompiler.select(selection, from: table, dialect: PostgresDialect(),
                                                     selecting: column.quoted) else { return .foldItems }
            guard !inner.matchesNothing else { return .computed(AggregateAccumulator(function).result) }
            let operation = "Computing the \(function) of \(String(reflecting: attribute)) over items of type "
                + String(reflecting: request.itemType)
            let c = column.quoted
            // The empty SELECT * shows the table's columns now: the column must still be an integer one.
            let results = try transaction.run([
                PGCommand("SELECT \(table.selectList) FROM \(table.qualified) LIMIT 0", prepared: true, operation: operation),
                PGCommand("SELECT sum(\(c))::text, count(\(c)), min(\(c))::int8, max(\(c))::int8 FROM (\(inner.sql)) "
                    + "AS persist_window (\(c))", inner.parameters, prepared: true, operation: operation),
            ])
            _ = try RowDecoder(table: table, result: results[0], location: location)
            let row = results[1]
            return .computed(try Self.aggregate(function, sum: try row.text(0, 0), count: try row.int64(0, 1) ?? 0,
                                            minimum: try row.int64(0, 2), maximum: try row.int64(0, 3)))
        }
        switch outcome {
        case nil: return AggregateAccumulator(function).result
        case .computed(let value): return value
        case .foldItems: break
        }
        var accumulator = AggregateAccumulator(function)
        try forEachItem(matching: request) { item in
            accumulator.add(item.attributes[attribute])
            return true
        }
        return accumulator.result
    }

    private static func aggregate(_ function: AggregateFunction, sum: String?, count: Int64,
                                  minimum: Int64?, maximum: Int64?) throws -> Value? {
        switch function {
        case .minimum: return minimum.map(Value.int)
        case .maximum: return maximum.map(Value.int)
        case .sum, .average:
            guard count > 0, let sum else { return function == .sum ? .int(0) : nil }
            if function == .sum, let exact = Int64(sum) { return .int(exact) }
            guard let rounded = Double(sum) else {
                throw DataStoreError(.corrupt, "PostgreSQL gave \(String(reflecting: sum)) as the sum of integers")
            }
            return .double(function == .sum ? rounded : rounded / Double(count))
        }
    }
}

/// What the SQL path of an aggregate found.
private enum SQLAggregate {
    /// The answer.
    case computed(Value?)
    /// PostgreSQL cannot give the shared semantics here: fold the items.
    case foldItems
}
