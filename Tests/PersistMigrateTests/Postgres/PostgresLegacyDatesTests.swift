import Foundation
import PersistTestSupport
import Testing

@Suite("persist-migrate: PostgreSQL dates arrive in SQLite as ISO text legacy readers read")
struct PostgresLegacyDatesTests {
    @Test("timestamp and date columns hold ISO text in SQLite, keep their declared types, and come back exactly")
    func isoDates() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        _ = try pg.sql("""
            CREATE SCHEMA \(pg.schema);
            CREATE TABLE \(pg.schema).invoice (id integer PRIMARY KEY, at timestamp, day date);
            INSERT INTO \(pg.schema).invoice VALUES (1, '2021-01-01 00:00:00', '2021-01-01'),
                                                    (2, '2024-02-29 23:59:59.123456', '1999-12-31'),
                                                    (3, '0001-01-01 00:00:00.5', NULL);
            """)
        let there = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        #expect(!there.stdout.contains("fallback"), "\(there.stdout)")
        let raw = try RawDatabase(directory.path("copy.sqlite"))
        #expect(try raw.rows("SELECT name, type FROM pragma_table_info('invoice') ORDER BY cid") == [
            [.text("id"), .text("int4")], [.text("at"), .text("timestamp without time zone")], [.text("day"), .text("date")],
        ])
        #expect(try raw.rows("SELECT typeof(at), at, typeof(day), day FROM invoice ORDER BY id") == [
            [.text("text"), .text("2021-01-01 00:00:00"), .text("text"), .text("2021-01-01")],
            [.text("text"), .text("2024-02-29 23:59:59.123456"), .text("text"), .text("1999-12-31")],
            [.text("text"), .text("0001-01-01 00:00:00.5"), .text("null"), .null],
        ])
        raw.close()
        let other = try PostgresScratch()
        defer { other.drop() }
        let back = try Tool.run(["copy.sqlite", other.url, "--progress", "never"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(!back.stdout.contains("fallback"), "\(back.stdout)")
        #expect(try other.sql("SELECT string_agg(id || ' ' || at || ' ' || coalesce(day::text, '-'), ', ' ORDER BY id) "
                              + "FROM \(other.schema).invoice")
            == "1 2021-01-01 00:00:00 2021-01-01, 2 2024-02-29 23:59:59.123456 1999-12-31, 3 0001-01-01 00:00:00.5 -")
        #expect(try other.sql("""
            SELECT string_agg(a.attname || ' ' || pg_catalog.format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
            FROM pg_catalog.pg_attribute a WHERE a.attrelid = '\(other.schema).invoice'::regclass AND a.attnum > 0
            """) == "id integer, at timestamp without time zone, day date")
    }
}
