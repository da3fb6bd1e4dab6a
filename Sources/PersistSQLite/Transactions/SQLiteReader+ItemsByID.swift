import Persist
import PersistSQL

extension SQLiteReader {
    /// The most parameters one statement of ``items(ofType:ids:)`` binds: under the 999 that
    /// SQLite before 3.32 allowed by default.
    static let idsPerStatement = 900

    /// The stored items of `itemType` with the identifiers `ids`, in one statement per
    /// ``idsPerStatement`` parameters: `WHERE key IN (…)`, or `WHERE (a, b) IN (VALUES (…), …)` for
    /// a composite key. SQLite compares by the key column's affinity and collation, which may
    /// select a row of another identifier too (`'1'` for `1` in an INTEGER column, `'A'` for `'a'`
    /// under NOCASE): only rows whose identifier is one of `ids` are kept, and a row of an
    /// identifier always matches its own key.
    ///
    /// ```swift
    /// let albums = try reader.items(ofType: "Album", ids: [1, 2, 3])
    /// ```
    func items(ofType itemType: String, ids: [ItemID]) throws -> [Item] {
        guard let table = try checkedSchema.tables[itemType], !ids.isEmpty else { return [] }
        var wanted: Set<ItemID> = []
        var values: [[SQLBinding]] = []
        for id in ids where wanted.insert(id).inserted {
            guard let key = table.keyValues(for: id) else { continue }
            if table.key.isRowid, case .int = id {} else if table.key.isRowid { continue }
            values.append(key)
        }
        let width = table.key.width
        let perStatement = max(1, Self.idsPerStatement / width)
        let decoder = RowDecoder(table: table, path: path)
        var found: [Item] = []
        var start = 0
        while start < values.count {
            let chunk = values[start..<min(start + perStatement, values.count)]
            start += chunk.count
            let sql: String
            if width == 1 {
                let list = (1...chunk.count).map { "?\($0)" }.joined(separator: ", ")
                sql = "SELECT \(table.selectList) FROM \(table.quoted) WHERE \(table.key.sql) IN (\(list))"
            } else {
                let rows = chunk.indices.map { row in
                    let first = (row - chunk.startIndex) * width
                    return "(" + (1...width).map { "?\(first + $0)" }.joined(separator: ", ") + ")"
                }.joined(separator: ", ")
                sql = "SELECT \(table.selectList) FROM \(table.quoted) WHERE (\(table.key.sql)) IN (VALUES \(rows))"
            }
            try connection.withStatement(sql, chunk.flatMap { $0 }) { statement in
                while try statement.step(Self.reading(itemType)) {
                    let item = try decoder.item(statement)
                    if wanted.contains(item.id) { found.append(item) }
                }
            }
        }
        return found
    }
}
