@testable import PersistPostgres
import Persist
import PersistConformance
import Testing

@Suite("PostgreSQL to PostgreSQL migrations keep composite keys and keyless tables")
struct KeyMigrationTests {
    static let source = """
        CREATE TABLE playlist_track (playlist_id int NOT NULL, track_id int NOT NULL, PRIMARY KEY (playlist_id, track_id));
        INSERT INTO playlist_track VALUES (1, 3402), (1, 3389), (8, 3402);
        CREATE TABLE log (at int, message text);
        INSERT INTO log VALUES (1, 'start'), (2, 'tick'), (2, 'tick');
        """

    /// The primary key columns of `table` in `schema`, in key order; empty without one.
    static func primaryKey(_ connection: PGConnection, _ schema: String, _ table: String) throws -> [String] {
        let result = try connection.execute("""
            SELECT a.attname::text FROM pg_catalog.pg_constraint k
            CROSS JOIN LATERAL unnest(k.conkey) WITH ORDINALITY AS u(attnum, position)
            JOIN pg_catalog.pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum
            WHERE k.contype = 'p' AND k.conrelid = $1::regclass ORDER BY u.position
            """, [.text("\(schema).\(table)")])
        return try (0..<result.rowCount).map { try result.text($0, 0) ?? "" }
    }

    @Test("the target has PRIMARY KEY (playlist_id, track_id), and a log table without any key holding every row")
    func keepsKeys() throws {
        try withPostgresStore(creatingWith: Self.source) { source, _ throws in
            let targetSchema = TestStores.newSchemaName()
            defer { try? TestStores.drop(targetSchema) }
            let target = PostgresDataStore(url: try TestServer.url(), options: TestStores.quietOptions { $0.schema = targetSchema })
            try target.setup()
            defer { try? target.tearDown() }
            _ = try Migration(source: source, target: target, options: MigrationOptions()).run()

            let connection = try TestServer.connect()
            defer { connection.close() }
            #expect(try Self.primaryKey(connection, targetSchema, "playlist_track") == ["playlist_id", "track_id"])
            #expect(try Self.primaryKey(connection, targetSchema, "log") == [])
            let indexes = try connection.execute(
                "SELECT count(*) FROM pg_catalog.pg_index WHERE indrelid = $1::regclass", [.text("\(targetSchema).log")])
            #expect(try indexes.int64(0, 0) == 0)
            let columns = try connection.execute("""
                SELECT string_agg(attname::text, ',' ORDER BY attnum) FROM pg_catalog.pg_attribute
                WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped
                """, [.text("\(targetSchema).log")])
            #expect(try columns.text(0, 0) == "at,message")

            #expect(try allItems(target, "playlist_track").map(\.id) == allItems(source, "playlist_track").map(\.id))
            let logged = try allItems(target, "log").map { [$0.attributes["at"], $0.attributes["message"]] }
            #expect(logged == [[1, "start"], [2, "tick"], [2, "tick"]])
            #expect(try target.skippedTables().isEmpty)
        }
    }
}
