import Persist
import PersistSQL

/// Streaming rows for a migration: every table in turn, in the order SQLite stores its rows.
extension SQLiteReader: RowStreamingReader {
    func forEachRow(ofTypes types: Set<String>?, _ body: (ItemRow) throws -> Bool) throws {
        let tables = try checkedSchema.tables.values.filter { types?.contains($0.name) ?? true }
            .sorted { ByteOrder.precedes($0.name, $1.name) }
        for table in tables {
            let decoder = RowDecoder(table: table, path: path)
            let byName = decoder.columnsByName()
            var shapes = RowShapes(sortedNames: byName.map { table.columns[$0].name })
            let keepGoing = try connection.withStatement("SELECT \(table.selectList) FROM \(table.quoted)") { statement in
                while try statement.step(Self.reading(table.name)) {
                    if try !body(decoder.row(statement, byName: byName, shapes: &shapes)) { return false }
                }
                return true
            }
            if !keepGoing { return }
        }
    }

    func countRows(ofTypes types: Set<String>?) throws -> (total: Int, perType: [String: Int]?) {
        var counts: [String: Int] = [:]
        for table in try checkedSchema.tables.values where types?.contains(table.name) ?? true {
            counts[table.name] = Int(try connection.integer("SELECT count(*) FROM \(table.quoted)",
                                                            operation: Self.reading(table.name)))
        }
        return (counts.values.reduce(0, +), counts)
    }
}
