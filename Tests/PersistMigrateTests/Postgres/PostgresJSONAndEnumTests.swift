import Foundation
import PersistTestSupport
import Testing

@Suite("persist-migrate: PostgreSQL json, arrays and enums arrive in SQLite as text legacy readers read")
struct PostgresJSONAndEnumTests {
    @Test("json, jsonb and array columns hold JSON text, an enum its labels, and all come back to PostgreSQL as they were")
    func jsonArraysAndEnums() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        _ = try pg.sql("""
            CREATE SCHEMA \(pg.schema);
            CREATE TYPE \(pg.schema).mood AS ENUM ('sad', 'ok', 'happy');
            CREATE TABLE \(pg.schema).doc (id integer PRIMARY KEY, j json, jb jsonb, tags text[], nums integer[],
                                           feeling \(pg.schema).mood, done boolean);
            INSERT INTO \(pg.schema).doc VALUES
                (1, '{"a":"x","b":[1,2.5]}', '[true, null, "y"]', '{a,"b c"}', '{1,2,3}', 'happy', true),
                (2, '"just text"', '7', '{}', '{-5}', 'sad', false),
                (3, NULL, '{"n": {"m": []}}', NULL, NULL, NULL, NULL);
            """)
        let there = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        #expect(!there.stdout.contains("fallback"), "\(there.stdout)")
        let raw = try RawDatabase(directory.path("copy.sqlite"))
        #expect(try raw.rows("SELECT name, type FROM pragma_table_info('doc') ORDER BY cid") == [
            [.text("id"), .text("int4")], [.text("j"), .text("json")], [.text("jb"), .text("jsonb")],
            [.text("tags"), .text("text[]")], [.text("nums"), .text("integer[]")], [.text("feeling"), .text("mood")],
            [.text("done"), .text("boolean")],
        ])
        // A boolean is the INTEGER 0 or 1 a legacy app reads.
        #expect(try raw.rows("SELECT done, typeof(done) FROM doc ORDER BY id") == [
            [.integer(1), .text("integer")], [.integer(0), .text("integer")], [.null, .text("null")],
        ])
        #expect(try raw.rows("SELECT j, jb, tags, nums, feeling FROM doc ORDER BY id") == [
            [.text(#"{"a":"x","b":[1,2.5]}"#), .text(#"[true,null,"y"]"#), .text(#"["a","b c"]"#), .text("[1,2,3]"),
             .text("happy")],
            [.text(#""just text""#), .integer(7), .text("[]"), .text("[-5]"), .text("sad")],
            [.null, .text(#"{"n":{"m":[]}}"#), .null, .null, .null],
        ])
        #expect(try raw.rows("SELECT type_name, labels FROM persist_enum_types") == [
            [.text("mood"), .text(#"["sad","ok","happy"]"#)],
        ])
        raw.close()
        let other = try PostgresScratch()
        defer { other.drop() }
        let back = try Tool.run(["copy.sqlite", other.url, "--progress", "never"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(!back.stdout.contains("fallback"), "\(back.stdout)")
        let types = """
            SELECT string_agg(a.attname || ' ' || pg_catalog.format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
            FROM pg_catalog.pg_attribute a WHERE a.attrelid = '%@.doc'::regclass AND a.attnum > 0
            """
        let original = try pg.sql(types.replacingOccurrences(of: "%@", with: pg.schema))
            .replacingOccurrences(of: pg.schema + ".", with: "")
        let copied = try other.sql(types.replacingOccurrences(of: "%@", with: other.schema))
            .replacingOccurrences(of: other.schema + ".", with: "")
        #expect(copied == original)
        #expect(original == "id integer, j json, jb jsonb, tags text[], nums integer[], feeling mood, done boolean")
        let rows = "SELECT string_agg(row_to_json(d)::text, ' | ' ORDER BY id) FROM %@.doc d"
        #expect(try other.sql(rows.replacingOccurrences(of: "%@", with: other.schema))
            == pg.sql(rows.replacingOccurrences(of: "%@", with: pg.schema)))
        #expect(try other.sql("SELECT string_agg(e.enumlabel::text, ',' ORDER BY e.enumsortorder) FROM pg_catalog.pg_enum e "
                              + "WHERE e.enumtypid = '\(other.schema).mood'::regtype") == "sad,ok,happy")
    }
}
