import Foundation
import PersistTestSupport
import Testing

/// Index names PostgreSQL holds apart and SQLite does not (it compares names without ASCII case
/// and keeps `sqlite_` names for itself) take a free name in an SQLite target, instead of
/// failing the copy.
@Suite("persist-migrate gives PostgreSQL indexes whose names SQLite cannot take a free name", .serialized)
struct PostgresIndexNameTests {
    @Test("T_a and t_a on two tables, an index named like a table in another case, and sqlite_x all reach SQLite")
    func namesSQLiteCannotTake() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let s = pg.schema
        _ = try pg.sql("""
            CREATE SCHEMA \(s);
            CREATE TABLE \(s).t (id integer PRIMARY KEY, a text);
            CREATE INDEX "T_a" ON \(s).t (a);
            CREATE TABLE \(s).u (id integer PRIMARY KEY, a text);
            CREATE UNIQUE INDEX t_a ON \(s).u (a);
            CREATE INDEX sqlite_x ON \(s).u (id, a);
            CREATE TABLE \(s)."V" (id integer PRIMARY KEY, b text);
            CREATE INDEX v ON \(s)."V" (b);
            INSERT INTO \(s).t VALUES (1, 'x');
            INSERT INTO \(s).u VALUES (1, 'y');
            """)
        let run = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        let copy = try RawDatabase(directory.path("copy.sqlite"))
        defer { copy.close() }
        // Keys declared int4 (PostgreSQL's integer) have SQLite's own indexes, not counted here.
        #expect(try copy.rows("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' "
                              + "AND name NOT LIKE 'sqlite_autoindex_%' ORDER BY name") == [
            [.text("T_a"), .text("t")], [.text("index_sqlite_x"), .text("u")], [.text("t_a_2"), .text("u")],
            [.text("v_2"), .text("V")],
        ])
        #expect(try copy.rows("SELECT \"unique\" FROM pragma_index_list('u') WHERE name = 't_a_2'") == [[.integer(1)]])
        #expect(try copy.rows("SELECT a FROM u") == [[.text("y")]])
    }
}
