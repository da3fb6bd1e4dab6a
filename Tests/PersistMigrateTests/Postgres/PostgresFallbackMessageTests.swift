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
            INSERT INTO \(pg.schema).posts VALUES (1, '10000-01-02 03:04:05');
            """)
        // ISO text in SQLite holds years 1 to 9999: this date falls back.
        let text = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("fallback: posts.created_at declared timestamp without time zone is now none, tagged with each value's kind, "
                                     + "to keep the date "), "\(text.stdout)")
    }

    @Test("a column that falls back in PostgreSQL says what kind each value is; ISO dates in SQLite come back as timestamps")
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
        // The dates went to SQLite as ISO text with their kind recorded, and come back as timestamps.
        #expect(!back.stdout.contains("posts.created_at"), "\(back.stdout)")
        #expect(try other.sql("SELECT created_at FROM \(other.schema).posts") == "2024-01-02 03:04:05.25")
        #expect(back.stdout.contains("to keep the string \"x7\" (no value lost)"), "\(back.stdout)")
    }
}
