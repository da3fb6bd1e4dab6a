import Foundation
import Persist
import PersistTestSupport
import Testing

/// SQLite tables keyed by a rowid they do not name (no PRIMARY KEY at all, the commonest legacy
/// table) through PostgreSQL, which has no rowid: they are keyless there, duplicate rows and all,
/// and keyless (rowid) tables again back in SQLite.
@Suite("persist-migrate moves SQLite tables keyed by their rowid through PostgreSQL", .serialized)
struct PostgresRowidTableTests {
    static let tableInfo = "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?) ORDER BY cid"

    @Test("a table without a primary key is keyless in PostgreSQL, duplicates kept, and a rowid table again back in SQLite")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let raw = try RawDatabase(directory.path("legacy.sqlite"))
        // Rowids with a gap (a deleted row), indexes, a table whose columns shadow two of SQLite's
        // names for the rowid, and a log with a duplicate row.
        try raw.exec("""
            CREATE TABLE notes(title TEXT NOT NULL, body TEXT, stars INTEGER);
            CREATE INDEX notes_title ON notes(title);
            CREATE UNIQUE INDEX a_notes_stars ON notes(stars);
            INSERT INTO notes(title, body, stars) VALUES ('a', 'first', 1), ('b', 'second', NULL), ('c', NULL, 3);
            DELETE FROM notes WHERE title = 'b';
            INSERT INTO notes(rowid, title, body, stars) VALUES (9000000000, 'far', 'big rowid', 5);
            CREATE TABLE shadow(rowid TEXT, OID TEXT, note TEXT);
            INSERT INTO shadow VALUES ('r', 'o', 'n');
            CREATE TABLE log(at TEXT, message TEXT);
            INSERT INTO log VALUES ('t1', 'start'), ('t1', 'start'), ('t2', 'stop');
            """)
        raw.close()
        let there = try Tool.run(["legacy.sqlite", pg.url, "--progress", "never"], in: directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        #expect(!there.stdout.contains("fallback"), "\(there.stdout)")

        #expect(try pg.sql("""
            SELECT column_name, data_type, is_nullable FROM information_schema.columns
            WHERE table_schema = '\(pg.schema)' AND table_name = 'notes' ORDER BY ordinal_position
            """) == """
            title|text|NO
            body|text|YES
            stars|bigint|YES
            """)
        #expect(try pg.sql("SELECT count(*) FROM pg_constraint WHERE conrelid = '\(pg.schema).notes'::regclass AND contype = 'p'")
                == "0")
        #expect(try pg.sql("SELECT title FROM \(pg.schema).notes ORDER BY title") == "a\nc\nfar")
        #expect(try pg.sql("SELECT count(*) FROM pg_indexes WHERE schemaname = '\(pg.schema)' AND indexname = 'notes_title'")
                == "1")
        #expect(try pg.sql("SELECT rowid, \"OID\", note FROM \(pg.schema).shadow") == "r|o|n")
        #expect(try pg.sql("SELECT at, message FROM \(pg.schema).log ORDER BY at, message") == "t1|start\nt1|start\nt2|stop")

        let back = try Tool.run([pg.url, "back.sqlite", "--progress", "never"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        let original = try RawDatabase(directory.path("legacy.sqlite"))
        let copy = try RawDatabase(directory.path("back.sqlite"))
        defer { original.close(); copy.close() }
        for table in ["notes", "shadow", "log"] {
            #expect(try copy.rows(Self.tableInfo, [.text(table)]) == original.rows(Self.tableInfo, [.text(table)]), "\(table)")
        }
        let notes = "SELECT title, body, stars, typeof(body), typeof(stars) FROM notes ORDER BY title"
        #expect(try copy.rows(notes) == original.rows(notes))
        let shadow = "SELECT rowid, oid, note FROM shadow"
        #expect(try copy.rows(shadow) == original.rows(shadow))
        let log = "SELECT at, message FROM log ORDER BY at, message"
        #expect(try copy.rows(log) == original.rows(log))
        // The indexes in the order they were made, whatever their names.
        let index = "SELECT name, \"unique\" FROM pragma_index_list('notes') WHERE origin = 'c'"
        #expect(try copy.rows(index) == original.rows(index))
        #expect(try copy.rows(index).count == 2)
        // Legacy inserts that leave the rowid to SQLite still work on the copy.
        try copy.exec("INSERT INTO notes(title) VALUES ('new')")
        #expect(try copy.rows("SELECT count(*) FROM notes WHERE title = 'new'") == [[.integer(1)]])
    }
}
