import Persist
import PersistSQL

/// The statements of requests on PostgreSQL tables.
typealias CompiledQuery = PersistSQL.CompiledQuery<PGValue>

extension PostgresDialect {
    static func select(_ request: DataStoreRequest, from table: TableSchema) -> CompiledQuery? {
        RequestCompiler.select(request, from: table, dialect: PostgresDialect())
    }

    static func count(_ request: DataStoreRequest, from table: TableSchema) -> CompiledQuery? {
        RequestCompiler.count(request, from: table, dialect: PostgresDialect())
    }

    static func delete(_ request: DataStoreRequest, from table: TableSchema) -> CompiledQuery? {
        RequestCompiler.delete(request, from: table, dialect: PostgresDialect())
    }

    static func update(_ request: DataStoreRequest, of table: TableSchema,
                       setting assignments: [(column: ColumnSchema, parameter: PGValue)]) -> CompiledQuery? {
        RequestCompiler.update(request, of: table, dialect: PostgresDialect(), setting: assignments)
    }

    /// Every row, by identifier: what the store evaluates a request over when PostgreSQL cannot.
    static func all(from table: TableSchema) -> CompiledQuery {
        CompiledQuery(sql: "SELECT \(table.selectList) FROM \(table.qualified) ORDER BY \(table.keyOrder)",
                      parameters: [], matchesNothing: false)
    }

    /// The most keys one key-list statement names (see ``delete(ids:from:)``).
    static let keyListLength = 1_000

    /// `DELETE`s of the rows with identifiers `ids`, `WHERE key IN ($1, …)` with at most
    /// ``keyListLength`` keys each, for what the store selected itself. Identifiers the key
    /// cannot hold are no row's, and left out.
    static func delete(ids: [ItemID], from table: TableSchema) -> [CompiledQuery] {
        keyLists(ids, of: table, after: PostgresDialect().parameters()) { "DELETE FROM \(table.qualified) WHERE \($0)" }
    }

    /// `UPDATE`s setting `assignments` on the rows with identifiers `ids`, as ``delete(ids:from:)``.
    static func update(ids: [ItemID], of table: TableSchema,
                       setting assignments: [(column: ColumnSchema, parameter: PGValue)]) -> [CompiledQuery] {
        var parameters = PostgresDialect().parameters()
        let list = assignments.map { "\($0.column.quoted) = \(parameters.add($0.parameter))" }.joined(separator: ", ")
        return keyLists(ids, of: table, after: parameters) { "UPDATE \(table.qualified) SET \(list) WHERE \($0)" }
    }

    /// One statement per ``keyListLength`` keys: `statement` of `key IN (…)`, its key parameters
    /// after `first`'s.
    private static func keyLists(_ ids: [ItemID], of table: TableSchema, after first: SQLParameters<PGValue>,
                                 _ statement: (String) -> String) -> [CompiledQuery] {
        let keys = ids.compactMap(table.keyParameter)
        return stride(from: 0, to: keys.count, by: keyListLength).map { start in
            var parameters = first
            let list = keys[start..<min(start + keyListLength, keys.count)].map { parameters.add($0) }
            let sql = statement(table.rowKey.isSingleColumn
                ? "\(table.key.quoted) IN (\(list.joined(separator: ", ")))"
                : "(\(table.rowKey.columnList)) IN (\(list.map { "(\(table.rowKey.values($0).joined(separator: ", ")))" }.joined(separator: ", ")))")
            return CompiledQuery(sql: sql, parameters: parameters.values, matchesNothing: false)
        }
    }
}
