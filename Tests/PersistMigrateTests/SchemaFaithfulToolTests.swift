import Foundation
import Persist
import PersistTestSupport
import Testing

@Suite("persist-migrate keeps adopted schemas, reports fallbacks and copies mixed kinds")
struct SchemaFaithfulToolTests {
    @Test("SwiftPM's MANIFEST_CACHE survives SQLite → SQLite, and its query works on the copy")
    func manifestCache() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let raw = try RawDatabase(directory.path("manifest.db"))
        try raw.exec("CREATE TABLE MANIFEST_CACHE(key STRING PRIMARY KEY NOT NULL, value BLOB NOT NULL);"
                     + "INSERT INTO MANIFEST_CACHE VALUES ('k1', x'0102'), ('k2', x'');")
        raw.close()
        let output = try Tool.run(["--from", "sqlite:manifest.db", "--to", "sqlite:copy.db", "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let copy = try RawDatabase(directory.path("copy.db"))
        defer { copy.close() }
        #expect(try copy.rows("SELECT name, type, \"notnull\", pk FROM pragma_table_info('MANIFEST_CACHE')") == [
            [.text("key"), .text("STRING"), .integer(1), .integer(1)],
            [.text("value"), .text("BLOB"), .integer(1), .integer(0)],
        ])
        #expect(try copy.rows("SELECT value FROM MANIFEST_CACHE WHERE key = ?", [.text("k1")]) == [[.blob([1, 2])]])
    }

    @Test("a column that falls back is reported in the summary and in --json")
    func fallbackReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let raw = try RawDatabase(directory.path("dynamic.db"))
        try raw.exec("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, n);
            INSERT INTO t VALUES (1, '0012'), (2, 3);
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = 'CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER)' WHERE name = 't';
            PRAGMA writable_schema = OFF;
            """)
        raw.close()
        let text = try Tool.run(["--from", "sqlite:dynamic.db", "--to", "sqlite:copy.db", "--progress", "never"], in: directory.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("fallback: t.n declared INTEGER"), "\(text.stdout)")
        let json = try Tool.run(["--from", "sqlite:dynamic.db", "--to", "sqlite:copy2.db", "--json"], in: directory.url)
        #expect(json.status == 0, "\(json.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let fallbacks = summary?["fallbacks"] as? [[String: Any]]
        #expect(fallbacks?.count == 1)
        #expect(fallbacks?.first?["column"] as? String == "n")
        #expect(fallbacks?.first?["declared_type"] as? String == "INTEGER")
        let copy = try RawDatabase(directory.path("copy2.db"))
        defer { copy.close() }
        #expect(try copy.rows("SELECT typeof(n), n FROM t ORDER BY id") == [[.text("text"), .text("0012")], [.text("integer"), .integer(3)]])
    }

    @Test("a source table that is no item type (no usable key) is named in the summary and in --json notes")
    func skippedTableReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let raw = try RawDatabase(directory.path("keys.db"))
        try raw.exec("""
            CREATE TABLE w (a REAL, b, c, PRIMARY KEY (a, b)) WITHOUT ROWID;
            INSERT INTO w VALUES (1, 2, 3);
            CREATE TABLE t (id INTEGER PRIMARY KEY);
            INSERT INTO t VALUES (1);
            """)
        raw.close()
        let text = try Tool.run(["--from", "sqlite:keys.db", "--to", "sqlite:copy.db", "--progress", "never"], in: directory.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("note: the source's table \"w\" was not copied: no usable key"), "\(text.stdout)")
        let json = try Tool.run(["--from", "sqlite:keys.db", "--to", "sqlite:copy2.db", "--json"], in: directory.url)
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let notes = summary?["notes"] as? [String]
        #expect(notes?.contains { $0.contains("\"w\" was not copied") } == true, "\(json.stdout)")
    }

    @Test("source tables skipped for names spelled two ways are named in the summary and in --json notes")
    func ambiguousNamesReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let raw = try RawDatabase(directory.path("names.db"))
        try raw.exec("""
            CREATE TABLE "caf\u{E9}" (id INTEGER PRIMARY KEY, v TEXT);
            CREATE TABLE "cafe\u{301}" (id INTEGER PRIMARY KEY, v TEXT);
            CREATE TABLE cols (id INTEGER PRIMARY KEY, "na\u{EF}ve" TEXT, "nai\u{308}ve" TEXT);
            INSERT INTO "caf\u{E9}" VALUES (1, 'composed');
            INSERT INTO "cafe\u{301}" VALUES (2, 'decomposed');
            INSERT INTO cols VALUES (1, 'a', 'b');
            """)
        raw.close()
        let json = try Tool.run(["--from", "sqlite:names.db", "--to", "sqlite:copy.db", "--json"], in: directory.url)
        #expect(json.status == 0, "\(json.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let notes = summary?["notes"] as? [String] ?? []
        #expect(notes.contains { $0.contains("\"caf\u{E9}\" was not copied: ambiguous name") }, "\(json.stdout)")
        #expect(notes.contains { $0.contains("\"cols\" was not copied: ambiguous name") }, "\(json.stdout)")
    }

    @Test("a schemaless source mixing kinds in one attribute reaches SQLite and comes back, verified")
    func mixedKinds() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let values: [Value] = [.date(Date(timeIntervalSinceReferenceDate: 3)), 5, "five", true, .bytes([0, 1]), 2.5,
                               .double(.nan), [1, "a"], ["k": false], .int(.min)]
        let items = values.enumerated().map { Item(itemType: "Event", id: .int(Int64($0)), attributes: ["when": $1]) }
        try StoreFiles.gdbm(directory.path("events.db"), holding: items)
        let there = try Tool.run(["--from", "gdbm:events.db", "--to", "sqlite:events.sqlite", "--progress", "never"], in: directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        #expect(there.stdout.contains("(verified)"))
        #expect(try StoreFiles.contents(.sqlite, directory.path("events.sqlite")) == Set(items))
        let back = try Tool.run(["--from", "sqlite:events.sqlite", "--to", "gdbm:back.db", "--progress", "never"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try StoreFiles.contents(.gdbm, directory.path("back.db")) == Set(items))
    }
}

extension SchemaFaithfulToolTests {
    @Test("SQLite → native GDBM → SQLite gives back the schema and the rows, typeof() included")
    func throughGDBM() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let raw = try RawDatabase(directory.path("legacy.db"))
        try raw.exec("""
            CREATE TABLE MANIFEST_CACHE(key STRING PRIMARY KEY NOT NULL, value BLOB NOT NULL);
            INSERT INTO MANIFEST_CACHE VALUES ('k1', x'0102'), ('k2', 'text'), ('3', x'');
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER, score REAL, tag VARCHAR(9) UNIQUE);
            CREATE INDEX people_by_age ON people (age);
            INSERT INTO people VALUES (1, 'Ann', 34, 1e308, 'a'), (2, 'B' || char(0), 'old', -0.0, NULL), (3, 'Cy', NULL, 5, 'c');
            """)
        raw.close()
        let there = try Tool.run(["--from", "sqlite:legacy.db", "--to", "gdbm:middle.db", "--progress", "never"], in: directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        let back = try Tool.run(["--from", "gdbm:middle.db", "--to", "sqlite:back.db", "--progress", "never"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        let original = try RawDatabase(directory.path("legacy.db"))
        let copy = try RawDatabase(directory.path("back.db"))
        defer {
            original.close()
            copy.close()
        }
        #expect(try copy.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'persist%' ORDER BY name")
            .map { Array($0.prefix(3)) }
            == original.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name").map { Array($0.prefix(3)) })
        for table in ["MANIFEST_CACHE", "people"] {
            let info = "SELECT * FROM pragma_table_info('\(table)')"
            #expect(try copy.rows(info) == original.rows(info))
            let indexes = "SELECT name, \"unique\", origin FROM pragma_index_list('\(table)') ORDER BY name"
            #expect(try copy.rows(indexes) == original.rows(indexes))
        }
        let manifest = "SELECT typeof(key), key, typeof(value), value FROM MANIFEST_CACHE ORDER BY key"
        #expect(try copy.rows(manifest) == original.rows(manifest))
        let people = "SELECT id, typeof(name), name, typeof(age), age, typeof(score), score, typeof(tag), tag FROM people ORDER BY id"
        #expect(try copy.rows(people) == original.rows(people))
        #expect(try copy.rows("SELECT value FROM MANIFEST_CACHE WHERE key = ?", [.text("k1")]) == [[.blob([1, 2])]])
    }

    @Test("through native GDBM, a text identifier added to an INTEGER PRIMARY KEY table makes the key fall back, and a UNIQUE over two columns survives")
    func keyFallbackThroughGDBM() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let raw = try RawDatabase(directory.path("legacy.db"))
        try raw.exec("""
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, team TEXT, UNIQUE (team, name));
            INSERT INTO people VALUES (1, 'Ann', 'red'), (2, 'Bob', 'red');
            """)
        raw.close()
        let there = try Tool.run(["--from", "sqlite:legacy.db", "--to", "gdbm:middle.db", "--progress", "never"], in: directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        // The GDBM store knows no key type: an item under a text identifier joins the others.
        let middle = StoreKind.gdbm.store(directory.path("middle.db"))
        try middle.setup()
        try middle.writeSync { try $0.insert(Item(itemType: "people", id: "guest", attributes: ["name": "Cy"])) }
        try middle.tearDown()

        let back = try Tool.run(["--from", "gdbm:middle.db", "--to", "sqlite:back.db", "--progress", "never", "--json"],
                                in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.contains("\"column\":\"id\""), "\(back.stdout)")
        let copy = try RawDatabase(directory.path("back.db"))
        defer { copy.close() }
        #expect(try copy.rows("SELECT name, type, pk FROM pragma_table_info('people')")
            == [[.text("id"), .text(""), .integer(1)], [.text("name"), .text("TEXT"), .integer(0)],
                [.text("team"), .text("TEXT"), .integer(0)]])
        #expect(try copy.rows("SELECT id, typeof(id), name FROM people ORDER BY name")
            == [[.integer(1), .text("integer"), .text("Ann")], [.integer(2), .text("integer"), .text("Bob")],
                [.text("guest"), .text("text"), .text("Cy")]])
        #expect(try copy.rows("SELECT name FROM pragma_index_info((SELECT name FROM pragma_index_list('people') "
                              + "WHERE origin = 'u')) ORDER BY seqno") == [[.text("team")], [.text("name")]])
    }
}
