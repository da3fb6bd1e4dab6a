import Foundation
import Persist
import PersistTestSupport
import Testing

/// Columns of PostgreSQL types Persist does not map to values are in no item: a migration whose
/// source holds values in them refuses to run rather than copy the rows without them.
@Suite("persist-migrate refuses to lose the values of PostgreSQL columns of unmapped types", .serialized)
struct PostgresUnmappedColumnTests {
    @Test("values in inet, money, enum, array and interval columns fail the copy (65) before anything is written; NULLs do not")
    func unmapped() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        _ = try pg.sql("""
            CREATE SCHEMA "\(pg.schema)";
            CREATE TYPE "\(pg.schema)".mood AS ENUM ('sad', 'happy');
            CREATE TABLE "\(pg.schema)".hosts (id integer PRIMARY KEY, ip inet, fee money, m "\(pg.schema)".mood,
                                               tags text[], up interval, name text);
            INSERT INTO "\(pg.schema)".hosts VALUES (1, '192.168.0.1/24', '$12.34', 'happy', '{a,b}', '1 day', 'x'),
                                                    (2, NULL, NULL, NULL, NULL, NULL, 'y');
            CREATE TABLE "\(pg.schema)".spare (id integer PRIMARY KEY, ip inet, name text);
            INSERT INTO "\(pg.schema)".spare VALUES (1, NULL, 'z');
            """)
        let refused = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(refused.status == 65, "\(refused.stderr)")
        for column in [#""hosts"."ip" (inet)"#, #""hosts"."fee" (money)"#, #""hosts"."tags" (text[])"#,
                       #""hosts"."up" (interval)"#, "mood)", "nothing was written", "--types"] {
            #expect(refused.stderr.contains(column), "\(column): \(refused.stderr)")
        }
        #expect(!refused.stderr.contains("\"spare\""), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("copy.sqlite")))

        // A column of an unmapped type that holds only NULL loses nothing.
        let copied = try Tool.run([pg.url, "copy.sqlite", "--progress", "never", "--types", "spare"], in: directory.url)
        #expect(copied.status == 0, "\(copied.stderr)")
        let copy = try RawDatabase(directory.path("copy.sqlite"))
        defer { copy.close() }
        #expect(try copy.rows("SELECT id, name FROM spare") == [[.integer(1), .text("z")]])
    }
}
