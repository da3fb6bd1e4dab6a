import Persist
import PersistConformance
import PersistPostgres
import Testing

/// Typed writes bind entity rows as binary parameters; the rows they leave must be the rows the
/// item path leaves.
@Suite("PostgreSQL typed entities write the same rows as items")
struct PostgresEntityRowTests {
    @Test("the typed path and the item path leave identical columns, column kinds and rows")
    func identicalRows() throws {
        try withPostgresStore { store, schema in
            try EntityDifferentialTests.run(on: store, seed: DifferentialTests.seed)
            let connection = try TestServer.connect()
            defer { connection.close() }
            func table(_ itemType: String) throws -> String {
                let found = try connection.execute(
                    "SELECT table_name FROM \(schema).persist_tables WHERE item_type = '\(itemType)'")
                return try #require(try found.text(0, 0))
            }
            let typed = try table(TypedTwin.itemType)
            let items = try table(ItemTwin.itemType)
            func lines(_ sql: String) throws -> [String] {
                let result = try connection.execute(sql)
                return try (0..<result.rowCount).map { row in
                    try (0..<result.columnCount).map { try result.text(row, $0) ?? "NULL" }.joined(separator: "|")
                }
            }
            let columns = { (name: String) in
                "SELECT column_name || ' ' || data_type FROM information_schema.columns WHERE table_schema = '\(schema)' "
                    + "AND table_name = '\(name)' ORDER BY ordinal_position"
            }
            #expect(try lines(columns(typed)) == lines(columns(items)))
            let kinds = { (name: String) in
                "SELECT column_name || ' ' || kind FROM \(schema).persist_columns WHERE table_name = '\(name)' ORDER BY 1"
            }
            #expect(try lines(kinds(typed)) == lines(kinds(items)))
            let count = try lines("SELECT count(*)::text FROM \(schema).\"\(typed)\"")
            #expect(Int(count.first ?? "") ?? 0 >= EntityDifferentialTests.sampleCount / 2)
            // Every row of each table is in the other, as often: the same rows, column by column.
            let differing = try lines("""
                SELECT count(*)::text FROM ((SELECT * FROM \(schema)."\(typed)" EXCEPT ALL SELECT * FROM \(schema)."\(items)")
                UNION ALL (SELECT * FROM \(schema)."\(items)" EXCEPT ALL SELECT * FROM \(schema)."\(typed)")) AS d
                """)
            #expect(differing == ["0"])
        }
    }
}
