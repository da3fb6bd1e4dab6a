import Foundation
import PersistTestSupport
import Testing

@Suite("persist-migrate's fallback notes show values as a reader writes them")
struct PostgresFallbackMessageTests {
    @Test("a timestamp column that falls back in SQLite names its date in ISO 8601, not in seconds since 2001")
    func dateInFallback() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        _ = try pg.sql("""
            CREATE SCHEMA \(pg.schema);
            CREATE TABLE \(pg.schema).posts (id bigint PRIMARY KEY, created_at timestamp NOT NULL);
            INSERT INTO \(pg.schema).posts VALUES (1, '2024-01-02 03:04:05.25');
            """)
        let text = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("fallback: posts.created_at declared timestamp without time zone is now none, tagged with each value's kind, "
                                     + "to keep the date 2024-01-02T03:04:05.250Z (no value lost)"), "\(text.stdout)")
    }

    @Test("a column that falls back in PostgreSQL names its date in ISO 8601, and says what kind each value is")
    func dateInPostgresFallback() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        _ = try pg.sql("""
            CREATE SCHEMA \(pg.schema);
            CREATE TABLE \(pg.schema).posts (id bigint PRIMARY KEY, created_at timestamp NOT NULL, code integer);
            INSERT INTO \(pg.schema).posts VALUES (1, '2024-01-02 03:04:05.25', 7);
            """)
        let other = try PostgresScratch()
        defer { other.drop() }
        let sqlite = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        let raw = try RawDatabase(directory.path("copy.sqlite"))
        try raw.exec("UPDATE posts SET code = 'x7'")
        raw.close()
        let back = try Tool.run(["copy.sqlite", other.url, "--progress", "never"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.contains("to keep the date 2024-01-02T03:04:05.250Z (no value lost)"), "\(back.stdout)")
        #expect(back.stdout.contains("to keep the string \"x7\" (no value lost)"), "\(back.stdout)")
    }
}
