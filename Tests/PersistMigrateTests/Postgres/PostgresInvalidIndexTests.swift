import Foundation
import PersistTestSupport
import Testing

/// A failed `CREATE UNIQUE INDEX CONCURRENTLY` leaves an invalid index behind, which vouches for
/// nothing about the rows already there: a copy does not carry it.
@Suite("persist-migrate leaves out an invalid PostgreSQL index", .serialized)
struct PostgresInvalidIndexTests {
    @Test("PostgreSQL → SQLite: rows that share the values of an invalid unique index are copied, without that index")
    func invalidUniqueIndex() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let s = pg.schema
        _ = try pg.sql("""
            CREATE SCHEMA \(s);
            CREATE TABLE \(s).t (id integer PRIMARY KEY, email text, city text);
            CREATE INDEX t_city ON \(s).t (city);
            INSERT INTO \(s).t VALUES (1, 'a@example.com', 'Oslo'), (2, 'a@example.com', 'Rome');
            """)
        // Fails on the shared email, leaving t_email behind, marked invalid.
        #expect(throws: (any Error).self) {
            try pg.sql("CREATE UNIQUE INDEX CONCURRENTLY t_email ON \(s).t (email)")
        }
        #expect(try pg.sql("SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = '\(s).t_email'::regclass") == "f")

        let run = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        let copy = try RawDatabase(directory.path("copy.sqlite"))
        defer { copy.close() }
        #expect(try copy.rows("SELECT name FROM pragma_index_list('t') WHERE origin = 'c' ORDER BY name")
                    == [[.text("t_city")]])
        #expect(try copy.rows("SELECT count(*) FROM t") == [[.integer(2)]])
    }
}
