import Foundation
import PersistTestSupport
import Testing

/// A column whose declared type cannot keep a value falls back to plain `text` or `bytea` while it
/// holds nothing else, and to the tagged encoding only when its values need it.
@Suite("persist-migrate: columns that hold only text or only bytes fall back to plain text or bytea in PostgreSQL")
struct PostgresPlainFallbackTests {
    static let rows = "SELECT id, created, typeof(created), code, typeof(code), data, typeof(data) FROM t ORDER BY id"
    static let tableInfo = "SELECT name, type, \"notnull\", pk FROM pragma_table_info('t') ORDER BY cid"

    /// A SQLite file with an ORM's dates (text in a `datetime` column) and `rows` more rows.
    private func source(in directory: TemporaryDirectory, _ rows: String) throws {
        let raw = try RawDatabase(directory.path("app.sqlite"))
        defer { raw.close() }
        try raw.exec("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, created datetime NOT NULL, code INTEGER, data INTEGER);
            CREATE INDEX t_created ON t(created);
            INSERT INTO t VALUES (1, '2024-01-02 03:04:05.123456', NULL, x'00ff'), (2, '2024-02-03 04:05:06', NULL, NULL);
            \(rows)
            """)
    }

    /// Copies the schema back to SQLite and expects `queries` to give what they give on the source.
    private func expectSameBack(from pg: PostgresScratch, in directory: TemporaryDirectory, _ queries: [String]) throws {
        let back = try Tool.run([pg.url, "back.sqlite", "--progress", "never"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        let original = try RawDatabase(directory.path("app.sqlite"))
        let copy = try RawDatabase(directory.path("back.sqlite"))
        defer { original.close(); copy.close() }
        for query in queries { #expect(try copy.rows(query) == original.rows(query), "\(query)") }
    }

    @Test("a datetime column of ORM text becomes text that SQL reads and sorts; the way back gives the same table")
    func textDates() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        try source(in: directory, "")
        let output = try Tool.run(["app.sqlite", pg.url, "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("fallback: t.created declared timestamp is now text, to keep the string "
                                       + "\"2024-01-02 03:04:05.123456\" (no value lost)"), "\(output.stdout)")
        #expect(output.stdout.contains("fallback: t.data declared bigint is now bytea, to keep"), "\(output.stdout)")
        #expect(try pg.sql("SELECT string_agg(column_name || ' ' || data_type || ' ' || is_nullable, ', ' "
                           + "ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = "
                           + "'\(pg.schema)' AND table_name = 't'")
                == "id bigint NO, created text NO, code bigint YES, data bytea YES")
        #expect(try pg.sql("SELECT string_agg(id::text, ',' ORDER BY id) FROM \(pg.schema).t "
                           + "WHERE created::timestamp > '2024-02-01'") == "2")
        #expect(try pg.sql("SELECT encode(data, 'hex') FROM \(pg.schema).t WHERE id = 1") == "00ff")
        try expectSameBack(from: pg, in: directory,
                           [Self.rows, Self.tableInfo, "SELECT name FROM pragma_index_list('t') ORDER BY name"])
    }

    @Test("a column of text that later meets an integer ends in the tagged encoding, reported once with the first misfit")
    func textThenInteger() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        // Text first (plain text), then an integer that text cannot keep as an integer.
        try source(in: directory, """
            WITH RECURSIVE k(i) AS (SELECT 3 UNION ALL SELECT i + 1 FROM k WHERE i < 1500)
            INSERT INTO t SELECT i, '2024-03-04', CASE WHEN i < 1500 THEN 'n/a' ELSE 42 END, NULL FROM k;
            """)
        let output = try Tool.run(["app.sqlite", pg.url, "--progress", "never", "--json"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let fallbacks = try #require(report["fallbacks"] as? [[String: Any]])
        let code = fallbacks.filter { $0["column"] as? String == "code" }
        #expect(code.count == 1, "\(fallbacks)")
        #expect(code.first?["fallback_type"] as? String == "bytea, tagged with each value's kind", "\(fallbacks)")
        #expect(code.first?["example"] as? String == "the string \"n/a\"", "\(fallbacks)")
        #expect(try pg.sql("SELECT data_type FROM information_schema.columns WHERE table_schema = '\(pg.schema)' "
                           + "AND table_name = 't' AND column_name = 'code'") == "bytea")
        try expectSameBack(from: pg, in: directory, [Self.rows, Self.tableInfo])
    }

    @Test("text with NUL, which a text column cannot hold, takes the tagged encoding even in an empty column")
    func textWithNUL() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        try source(in: directory, "INSERT INTO t VALUES (3, '2024-03-04', 'a' || char(0) || 'b', NULL);")
        let output = try Tool.run(["app.sqlite", pg.url, "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("fallback: t.code declared bigint is now bytea, tagged with each value's kind"),
                "\(output.stdout)")
        try expectSameBack(from: pg, in: directory, [Self.rows])
    }
}
