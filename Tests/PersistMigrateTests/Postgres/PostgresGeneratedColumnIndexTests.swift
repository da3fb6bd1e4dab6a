import Foundation
import PersistTestSupport
import Testing

/// Through PostgreSQL, as ``GeneratedColumnIndexTests`` checks for SQLite: an index or a UNIQUE
/// constraint that lists a generated column is left out of the copy, and the notes name it.
@Suite("persist-migrate leaves out the indexes of generated columns through PostgreSQL", .serialized)
struct PostgresGeneratedColumnIndexTests {
    @Test("SQLite → PostgreSQL: the table is recreated without the indexes of generated columns")
    func sqliteToPostgres() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let raw = try RawDatabase(directory.path("app.sqlite"))
        try raw.exec(GeneratedColumnIndexTests.schema)
        raw.close()
        let run = try Tool.run(["app.sqlite", pg.url, "--progress", "never"], in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(GeneratedColumnIndexTests.note), "\(run.stdout)")
        #expect(try pg.sql("SELECT indexname FROM pg_indexes WHERE schemaname = '\(pg.schema)' AND tablename = 'g' "
                           + "ORDER BY indexname") == "g_pkey\ng_z")
        #expect(try pg.sql("SELECT count(*) FROM \(pg.schema).g") == "2")
    }

    @Test("PostgreSQL → SQLite: indexes and UNIQUE constraints over a generated column are notes, not failures")
    func postgresToSQLite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let s = pg.schema
        _ = try pg.sql("""
            CREATE SCHEMA \(s);
            CREATE TABLE \(s).g (id integer PRIMARY KEY, price double precision, qty integer,
              total double precision GENERATED ALWAYS AS (price * qty) STORED, z integer, UNIQUE (z, total));
            CREATE INDEX g_total ON \(s).g (total);
            CREATE UNIQUE INDEX g_total_id ON \(s).g (total, id);
            CREATE INDEX g_z ON \(s).g (z);
            INSERT INTO \(s).g (id, price, qty, z) VALUES (1, 1.5, 2, 1), (2, 2, 3, 1);
            """)
        let run = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("note: the copy of \"g\" does not carry the generated total, the constraint "
                                        + "g_z_total_key UNIQUE (z, total), the index on generated columns g_total, "
                                        + "the index on generated columns g_total_id"), "\(run.stdout)")
        let copy = try RawDatabase(directory.path("copy.sqlite"))
        defer { copy.close() }
        #expect(try copy.rows("SELECT name FROM pragma_index_list('g') WHERE origin <> 'pk' ORDER BY name") == [[.text("g_z")]])
        #expect(try copy.rows("SELECT count(*) FROM g") == [[.integer(2)]])
    }
}
