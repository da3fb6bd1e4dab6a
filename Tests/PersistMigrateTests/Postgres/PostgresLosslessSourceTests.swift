import Foundation
import Persist
import PersistTestSupport
import Testing

/// A migration from PostgreSQL copies every value exactly or refuses: columns of types Persist
/// does not map are in no item, and some numerics and timestamps have no exact `Value`.
@Suite("persist-migrate refuses to lose PostgreSQL values it cannot hold", .serialized)
struct PostgresLosslessSourceTests {
    @Test("values in money and composite columns fail the copy (65) before anything is written; NULLs do not; inet, enum, array and interval columns copy")
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
            CREATE TYPE "\(pg.schema)".pair AS (a integer, b integer);
            CREATE TABLE "\(pg.schema)".halves (id integer PRIMARY KEY, p "\(pg.schema)".pair);
            INSERT INTO "\(pg.schema)".halves VALUES (1, ROW(1, NULL));
            """)
        let refused = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(refused.status == 65, "\(refused.stderr)")
        for column in [#""hosts"."fee" (money)"#, "nothing was written", "--types"] {
            #expect(refused.stderr.contains(column), "\(column): \(refused.stderr)")
        }
        for carried in [#""hosts"."ip""#, #""hosts"."tags""#, #""hosts"."up""#, "mood)"] {
            #expect(!refused.stderr.contains(carried), "\(carried): \(refused.stderr)")
        }
        #expect(!refused.stderr.contains("\"spare\""), "\(refused.stderr)")
        // A composite value with a NULL field is a value too (IS NOT NULL would say otherwise).
        #expect(refused.stderr.contains(#""halves"."p" ("#), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("copy.sqlite")))

        // A column of an unmapped type that holds only NULL loses nothing.
        let copied = try Tool.run([pg.url, "copy.sqlite", "--progress", "never", "--types", "spare"], in: directory.url)
        #expect(copied.status == 0, "\(copied.stderr)")
        let copy = try RawDatabase(directory.path("copy.sqlite"))
        defer { copy.close() }
        #expect(try copy.rows("SELECT id, name FROM spare") == [[.integer(1), .text("z")]])
    }

    @Test("numerics no Decimal holds and timestamps a Date cannot keep fail the copy (65); every other one copies exactly")
    func inexact() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let other = try PostgresScratch()
        defer { other.drop() }
        _ = try pg.sql("""
            CREATE SCHEMA "\(pg.schema)";
            CREATE TABLE "\(pg.schema)".fine (id integer PRIMARY KEY, n numeric, money numeric(10,2), t timestamptz,
                                                 local timestamp);
            INSERT INTO "\(pg.schema)".fine VALUES
                (1, 0.1, 5.00, '2024-05-06 07:08:09.123456+00', '1999-12-31 23:59:59.999999'),
                (2, -9223372036854775808, 1.10, 'infinity', '-infinity'),
                (3, 1e100, 0, '1970-01-01 00:00:00+00', '2100-01-01 00:00:00.000001'),
                (4, 12345678901234567890.123456789, 12345678.91, '2000-01-01 00:00:00+00', NULL);
            CREATE TABLE "\(pg.schema)".wide (id integer PRIMARY KEY, n numeric);
            INSERT INTO "\(pg.schema)".wide VALUES (1, 0.5), (2, 1234567890123456789012345678901234567890.5);
            CREATE TABLE "\(pg.schema)".far (id integer PRIMARY KEY, t timestamptz);
            INSERT INTO "\(pg.schema)".far VALUES (1, '9999-12-31 23:59:59.999999+00');
            """)
        for (type, says) in [("wide", "the numeric 1234567890123456789012345678901234567890.5"),
                             ("far", "a timestamp whose microsecond")] {
            let refused = try Tool.run([pg.url, "copy.sqlite", "--progress", "never", "--types", type], in: directory.url)
            #expect(refused.status == 65, "\(type): \(refused.stderr)")
            #expect(refused.stderr.contains(says) && refused.stderr.contains("item \(type)/"), "\(refused.stderr)")
            #expect(refused.stderr.contains("convert each such column"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.path("copy.sqlite")))
        }
        let copied = try Tool.run([pg.url, other.url, "--progress", "never", "--types", "fine"], in: directory.url)
        #expect(copied.status == 0, "\(copied.stderr)")
        // Equal numerics: each is copied as its exact decimal.
        let rows = "SELECT id, trim_scale(n), money, t, local FROM \"%@\".fine ORDER BY id"
        let copy = try other.sql(rows.replacingOccurrences(of: "%@", with: other.schema))
        let original = try pg.sql(rows.replacingOccurrences(of: "%@", with: pg.schema))
        #expect(copy == original, "\(copy)\n----\n\(original)")
    }

    @Test("JSON numbers no integer or double equals, repeated keys, lone surrogates and a JSON null fail the copy (65); exact JSON copies")
    func inexactJSON() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let other = try PostgresScratch()
        defer { other.drop() }
        _ = try pg.sql("""
            CREATE SCHEMA "\(pg.schema)";
            CREATE TABLE "\(pg.schema)".fine (id integer PRIMARY KEY, j json, b jsonb);
            INSERT INTO "\(pg.schema)".fine VALUES
                (1, '{"a": 0.1, "b": 1e2, "c": -0.0, "d": 12, "e": [1.5, "x", null]}', '{"big": 9223372036854775807}'),
                (2, '[1e300, 2.5e-3]', '"text"');
            CREATE TABLE "\(pg.schema)".digits (id integer PRIMARY KEY, j jsonb);
            INSERT INTO "\(pg.schema)".digits VALUES (1, '{"n": 0.1000000000000000000001}');
            CREATE TABLE "\(pg.schema)".huge (id integer PRIMARY KEY, j json);
            INSERT INTO "\(pg.schema)".huge VALUES (1, '[12345678901234567890]'), (2, '1e400');
            CREATE TABLE "\(pg.schema)".twice (id integer PRIMARY KEY, j json);
            INSERT INTO "\(pg.schema)".twice VALUES (1, '{"a": 1, "a": 2}');
            CREATE TABLE "\(pg.schema)".nulls (id integer PRIMARY KEY, j json);
            INSERT INTO "\(pg.schema)".nulls VALUES (1, 'null');
            CREATE TABLE "\(pg.schema)".halves (id integer PRIMARY KEY, j json);
            INSERT INTO "\(pg.schema)".halves VALUES (1, '"\\ud83d"');
            """)
        for (type, says) in [("digits", "the JSON number 0.1000000000000000000001"),
                             ("huge", "the JSON number 12345678901234567890"),
                             ("twice", "the key \"a\" twice"), ("nulls", "the JSON null"),
                             ("halves", "half of a UTF-16 surrogate pair")] {
            let refused = try Tool.run([pg.url, "copy.sqlite", "--progress", "never", "--types", type], in: directory.url)
            #expect(refused.status == 65, "\(type): \(refused.stderr)")
            #expect(refused.stderr.contains(says) && refused.stderr.contains("item \(type)/"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.path("copy.sqlite")))
        }
        let copied = try Tool.run([pg.url, other.url, "--progress", "never", "--types", "fine"], in: directory.url)
        #expect(copied.status == 0, "\(copied.stderr)")
        // Equal as JSON values (1e2 comes back as 100.0, the same number).
        let equal = try pg.sql("""
            SELECT count(*) FROM "\(pg.schema)".fine a JOIN "\(other.schema)".fine b USING (id)
            WHERE a.j::jsonb = b.j::jsonb AND a.b = b.b
            """)
        #expect(equal == "2")
    }
}
