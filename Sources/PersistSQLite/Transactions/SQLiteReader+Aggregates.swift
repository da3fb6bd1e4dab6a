import Persist
import PersistSQL

extension SQLiteReader {
    /// Streams only the attribute's column, in the request's order and window, in one `SELECT`,
    /// and folds it with the shared accumulator, so the answer is exactly the default's.
    func aggregate(_ function: AggregateFunction, of attribute: String, matching request: DataStoreRequest) throws -> Value? {
        var accumulator = AggregateAccumulator(function)
        guard let table = try checkedSchema.tables[request.itemType], let index = table.columnIndex[attribute] else {
            return accumulator.result
        }
        let projection = table.projection(onto: table.columns[index])
        let query = try SQLiteDialect.select(request, from: table, selecting: projection.selectList)
        guard !query.matchesNothing else { return accumulator.result }
        let decoder = RowDecoder(table: projection, path: path)
        try connection.withStatement(query.sql, query.parameters) { statement in
            while try statement.step(Self.reading(request.itemType)) {
                accumulator.add(try decoder.item(statement).attributes[attribute])
            }
        }
        return accumulator.result
    }

    /// The largest integer key, found through the key's index: integers sort below every text
    /// value, so the search runs backwards from `''`.
    func largestIntegerID(ofType itemType: String) throws -> Int64? {
        guard let table = try checkedSchema.tables[itemType], !table.key.isComposite else { return nil }
        let key = table.key.sql
        return try connection.withStatement(
            "SELECT \(key) FROM \(table.quoted) WHERE \(key) < '' AND typeof(\(key)) = 'integer' ORDER BY \(key) DESC LIMIT 1"
        ) { statement in
            try statement.step(Self.reading(itemType)) ? statement.int64(0) : nil
        }
    }
}
