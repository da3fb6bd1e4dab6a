import CSQLite
import Foundation
import Persist
import PersistConformance
import PersistSQLite
import Testing
import PersistTestSupport

/// Databases written by other programs, opened in place: nothing is converted, every value keeps
/// its storage class, and writes through accessors change exactly what they say.
@Suite("SQLiteDataStore adopts legacy databases in place")
struct LegacyAdoptionTests {
    static let legacySchema = """
        CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, age INTEGER, score REAL, code STRING, photo BLOB, note);
        INSERT INTO people VALUES (1, 'Ann', 34, 1.5, '00123', X'00FF', NULL);
        INSERT INTO people VALUES (2, 'Bob', '35', 2, 'abc', NULL, 7);
        INSERT INTO people VALUES (3, 'Cy', 'unknown', NULL, X'41', 'x', 1.25);
        CREATE TABLE "Odd ""Name"" Table" ("Key Column" TEXT PRIMARY KEY, "select" INT, "with space");
        INSERT INTO "Odd ""Name"" Table" VALUES ('k1', 1, 'v'), ('K1', '2', X'01'), ('', NULL, -0.5);
        CREATE TABLE log (message TEXT, level INT);
        INSERT INTO log VALUES ('start', 1), ('stop', 2);
        CREATE TABLE blobkeys (k BLOB PRIMARY KEY, v) WITHOUT ROWID;
        INSERT INTO blobkeys VALUES (X'0001', 'a'), (X'', 'empty');
        CREATE TABLE pairs (a, b, PRIMARY KEY (a, b)) WITHOUT ROWID;
        INSERT INTO pairs VALUES (1, 2);
        CREATE TABLE counters (id INTEGER PRIMARY KEY AUTOINCREMENT, hits INTEGER NOT NULL DEFAULT 0);
        INSERT INTO counters (hits) VALUES (5);
        CREATE VIEW adults AS SELECT * FROM people WHERE age >= 18;
        CREATE INDEX people_by_name ON people (name);
        """
    static let tables = ["people", "Odd \"Name\" Table", "log", "blobkeys", "pairs", "counters"]

    /// Every row of every table, with storage classes, as plain SQL sees it.
    static func snapshot(_ path: String) throws -> [String: [[RawValue]]] {
        let raw = try RawDatabase(path)
        defer { raw.close() }
        var result: [String: [[RawValue]]] = [:]
        for table in tables {
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let columns = try raw.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).map { row -> String in
                guard case .text(let name) = row[0] else { return "" }
                return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }
            let selected = columns.flatMap { ["typeof(\($0))", $0] }.joined(separator: ", ")
            let order = table == "pairs" || table == "blobkeys" ? "2, 4" : "rowid"
            result[table] = try raw.rows("SELECT \(selected) FROM \(quoted) ORDER BY \(order)")
        }
        return result
    }

    static func makeLegacyDatabase(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("legacy.db")
        let raw = try RawDatabase(path)
        try raw.exec(legacySchema)
        raw.close()
        return path
    }

    @Test("every table with a usable key is an item type and values keep their storage classes")
    func readsLegacyValuesAsStored() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.makeLegacyDatabase(directory)
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }

        #expect(try store.read { try $0.itemTypes() } == ["Odd \"Name\" Table", "blobkeys", "counters", "log", "pairs", "people"])
        #expect(try allItems(store, "people") == [
            Item(itemType: "people", id: 1, attributes: [
                "name": "Ann", "age": 34, "score": 1.5, "code": 123, "photo": .bytes([0, 255]),
            ]),
            Item(itemType: "people", id: 2, attributes: ["name": "Bob", "age": 35, "score": 2.0, "code": "abc", "note": 7]),
            Item(itemType: "people", id: 3, attributes: [
                "name": "Cy", "age": "unknown", "code": .bytes([0x41]), "photo": "x", "note": 1.25,
            ]),
        ])
        #expect(try allItems(store, "Odd \"Name\" Table") == [
            Item(itemType: "Odd \"Name\" Table", id: "", attributes: ["with space": -0.5]),
            Item(itemType: "Odd \"Name\" Table", id: "K1", attributes: ["select": 2, "with space": .bytes([1])]),
            Item(itemType: "Odd \"Name\" Table", id: "k1", attributes: ["select": 1, "with space": "v"]),
        ])
        #expect(try allItems(store, "log") == [
            Item(itemType: "log", id: 1, attributes: ["message": "start", "level": 1]),
            Item(itemType: "log", id: 2, attributes: ["message": "stop", "level": 2]),
        ])
        #expect(try allItems(store, "blobkeys").map(\.id) == [.bytes([]), .bytes([0, 1])])
        let skipped = try store.skippedTables()
        #expect(skipped.map(\.name) == ["adults", "sqlite_sequence"])
        #expect(skipped.map(\.reason) == [.view, .sqliteInternal])
        // Keyed by two columns: composite identifiers, and no attributes left.
        #expect(try allItems(store, "pairs") == [Item(itemType: "pairs", id: .composite([.int(1), .int(2)]), attributes: [:])])
        try store.read { accessor throws in
            #expect(try accessor.item(ofType: "people", id: "1") == nil)
            #expect(try accessor.item(ofType: "people", id: 2)?["name"] == "Bob")
            #expect(try accessor.item(ofType: "Odd \"Name\" Table", id: "k1")?["select"] == 1)
            #expect(try accessor.item(ofType: "Odd \"Name\" Table", id: 1) == nil)
            #expect(try accessor.item(ofType: "pairs", id: 1) == nil)
            #expect(try accessor.item(ofType: "adults", id: 1) == nil)
            var request = DataStoreRequest(itemType: "people")
            request.filter = .attribute("age") >= 30
            #expect(try accessor.items(forRequest: request).map(\.id) == [1, 2])
            request.filter = .attribute("code") == "abc" || .attribute("code") == 123
            #expect(try accessor.items(forRequest: request).map(\.id) == [1, 2])
            request.filter = .attribute("code") == "123"
            #expect(try accessor.countItems(forRequest: request) == 0)
            request.filter = nil
            request.sortDescriptors = [.ascending("note")]
            #expect(try accessor.items(forRequest: request).map(\.id) == [1, 3, 2])
        }
    }

    @Test("updates through accessors change exactly the rows and columns they name")
    func writesChangeNothingElse() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.makeLegacyDatabase(directory)
        var expected = try Self.snapshot(path)
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        try store.writeSync { accessor throws in
            let bob = try #require(try accessor.mutableVersion(ofItem: Item(itemType: "people", id: 2)))
            bob["name"] = "Robert"
            try accessor.insert(Item(itemType: "people", id: 4, attributes: ["name": "Dee", "age": 40, "photo": .bytes([])]))
            try accessor.insert(Item(itemType: "log", id: 10, attributes: ["message": "again"]))
            #expect(try accessor.delete(item: Item(itemType: "log", id: 1)))
            try accessor.save(Item(itemType: "Odd \"Name\" Table", id: "K1", attributes: ["select": 3]))
            try accessor.insert(Item(itemType: "counters", id: 7))
        }
        try store.tearDown()

        expected["people"]?[1][3] = .text("Robert")
        expected["people"]?.append([
            .text("integer"), .integer(4), .text("text"), .text("Dee"), .text("integer"), .integer(40),
            .text("null"), .null, .text("null"), .null, .text("blob"), .blob([]), .text("null"), .null,
        ])
        expected["log"] = [
            [.text("text"), .text("stop"), .text("integer"), .integer(2)],
            [.text("text"), .text("again"), .text("null"), .null],
        ]
        expected["Odd \"Name\" Table"]?[1] = [.text("text"), .text("K1"), .text("integer"), .integer(3), .text("null"), .null]
        // The item had no hits: the column's DEFAULT applies, as it would for legacy code.
        expected["counters"]?.append([.text("integer"), .integer(7), .text("integer"), .integer(0)])
        #expect(try Self.snapshot(path) == expected)
        let raw = try RawDatabase(path)
        #expect(try raw.rows("SELECT name FROM sqlite_schema WHERE name = 'people_by_name' OR name = 'adults'").count == 2)
        #expect(try raw.rows("SELECT count(*) FROM sqlite_schema WHERE name = 'persist_columns'") == [[.integer(0)]])
    }

    @Test("a new attribute adds a typed column to the legacy table and leaves its rows alone")
    func newAttributeAddsColumn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.makeLegacyDatabase(directory)
        let before = try Self.snapshot(path)
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        try store.writeSync { accessor throws in
            let ann = try #require(try accessor.mutableVersion(ofItem: Item(itemType: "people", id: 1)))
            ann["joined"] = .date(Date(timeIntervalSinceReferenceDate: 12.5))
        }
        #expect(try store.read { try $0.item(ofType: "people", id: 1)?["joined"] }
            == .date(Date(timeIntervalSinceReferenceDate: 12.5)))
        // The column is Persist's own: another kind widens it to a tagged column.
        try store.writeSync { accessor throws in
            let bob = try #require(try accessor.mutableVersion(ofItem: Item(itemType: "people", id: 2)))
            bob["joined"] = "soon"
        }
        #expect(try store.read { try $0.item(ofType: "people", id: 2)?["joined"] } == "soon")
        try store.tearDown()
        let raw = try RawDatabase(path)
        #expect(try raw.rows("SELECT kind FROM persist_columns WHERE table_name = 'people' AND column_name = 'joined'")
            == [[.text("mixed")]])
        #expect(try raw.rows("SELECT typeof(joined) FROM people ORDER BY id")
            == [[.text("blob")], [.text("text")], [.text("null")]])
        raw.close()
        var after = try Self.snapshot(path)
        after["people"] = after["people"]?.map { Array($0.dropLast(2)) }
        #expect(after == before)
    }

    @Test("writes SQLite's affinity would alter, or a legacy column cannot give back, are refused")
    func alteringWritesAreRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.makeLegacyDatabase(directory)
        let raw = try RawDatabase(path)
        try raw.exec("CREATE TABLE strict_things (id INTEGER PRIMARY KEY, label TEXT, anything ANY) STRICT;"
            + "INSERT INTO strict_things VALUES (1, 'one', 1.5);")
        raw.close()
        let before = try Self.snapshot(path)
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        let refused: [Item] = [
            Item(itemType: "people", id: 2, attributes: ["code": "00042"]),       // STRING: numeric affinity
            Item(itemType: "people", id: 2, attributes: ["name": 5]),             // TEXT turns numbers into text
            Item(itemType: "people", id: 2, attributes: ["score": 3]),            // REAL turns integers into reals
            Item(itemType: "people", id: 2, attributes: ["score": -0.0]),         // REAL loses the sign of zero
            Item(itemType: "people", id: 2, attributes: ["note": true]),          // legacy columns hold no booleans
            Item(itemType: "people", id: 2, attributes: ["note": .double(.nan)]),
            Item(itemType: "people", id: 2, attributes: ["note": [1, 2]]),
            Item(itemType: "people", id: "x"),                                    // INTEGER PRIMARY KEY
            Item(itemType: "people", id: "9"),
            Item(itemType: "log", id: "x"),                                       // rowid
            Item(itemType: "Odd \"Name\" Table", id: 5),                         // TEXT key
            Item(itemType: "strict_things", id: 1, attributes: ["label": 5]),
        ]
        for item in refused {
            let error = expectError(.typeMismatch) { try store.writeSync { try $0.save(item) } }
            #expect(error?.items == [item.reference], "\(item)")
            #expect(error?.message.contains(path) == true)
        }
        // Kept as given: these are fine.
        try store.writeSync { accessor throws in
            try accessor.save(Item(itemType: "strict_things", id: 2, attributes: ["label": "two", "anything": .bytes([2]),
                                                                                 "extra": true]))
        }
        #expect(try store.read { try $0.item(ofType: "strict_things", id: 2) }
            == Item(itemType: "strict_things", id: 2, attributes: ["label": "two", "anything": .bytes([2]), "extra": true]))
        try store.tearDown()
        var after = try Self.snapshot(path)
        after["strict_things"] = nil
        var expected = before
        expected["strict_things"] = nil
        #expect(after == expected)
    }

    @Test("saving into a table with DEFAULTs and checked columns compares only the values given")
    func defaultsWithCheckedColumns() throws {
        let sql = "CREATE TABLE scores (id INTEGER PRIMARY KEY, name TEXT DEFAULT 'anonymous', score REAL);"
        try withFileStore(creatingWith: sql) { store, _ throws in
            try store.writeSync { accessor throws in
                try accessor.save(Item(itemType: "scores", id: 1, attributes: ["score": 2.5]))
                try accessor.insert(Item(itemType: "scores", id: 2, attributes: ["score": 1.0]))
            }
            #expect(try allItems(store, "scores") == [
                Item(itemType: "scores", id: 1, attributes: ["name": "anonymous", "score": 2.5]),
                Item(itemType: "scores", id: 2, attributes: ["name": "anonymous", "score": 1.0]),
            ])
        }
    }

    @Test("hostile legacy names are read and written safely")
    func hostileLegacyNames() throws {
        let table = "Robert'); DROP TABLE x;--"
        let sql = #"""
            CREATE TABLE x (v);
            CREATE TABLE "Robert'); DROP TABLE x;--" ("""" PRIMARY KEY, "" TEXT, "select" TEXT COLLATE NOCASE,
                g GENERATED ALWAYS AS ("select" || '!'));
            INSERT INTO "Robert'); DROP TABLE x;--" ("""", "", "select") VALUES ('a', 'hidden', 'Mixed'), ('b', NULL, 'mixed');
            """#
        try withFileStore(creatingWith: sql) { store, path throws in
            #expect(try allItems(store, table) == [
                Item(itemType: table, id: "a", attributes: ["select": "Mixed"]),
                Item(itemType: table, id: "b", attributes: ["select": "mixed"]),
            ])
            var request = DataStoreRequest(itemType: table)
            request.filter = .attribute("select") == "mixed"
            #expect(try store.read { try $0.items(forRequest: request).map(\.id) } == ["b"])
            request.filter = .attribute("select") < "a"
            #expect(try store.read { try $0.items(forRequest: request).map(\.id) } == ["a"])
            expectError(.invalidArgument) {
                try store.writeSync { try $0.save(Item(itemType: table, id: "c", attributes: ["g": "x"])) }
            }
            expectError(.invalidArgument) {
                try store.writeSync { try $0.save(Item(itemType: table, id: "c", attributes: ["SELECT": "x"])) }
            }
            try store.writeSync { try $0.save(Item(itemType: table, id: "c", attributes: ["select": "new"])) }
            try store.tearDown()
            let check = try RawDatabase(path)
            #expect(try check.rows(#"SELECT """", "", "select", g FROM "Robert'); DROP TABLE x;--" ORDER BY 1"#) == [
                [.text("a"), .text("hidden"), .text("Mixed"), .text("Mixed!")],
                [.text("b"), .null, .text("mixed"), .text("mixed!")],
                [.text("c"), .null, .text("new"), .text("new!")],
            ])
            #expect(try check.rows("SELECT count(*) FROM x") == [[.integer(0)]])
        }
    }

    @Test("virtual tables and their shadow tables are skipped, and the rest is adopted")
    func virtualTablesAreSkipped() throws {
        let sql = """
            CREATE VIRTUAL TABLE docs USING fts5(body);
            INSERT INTO docs (body) VALUES ('full text');
            CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
            INSERT INTO notes VALUES (1, 'plain');
            """
        try withFileStore(creatingWith: sql) { store, _ throws in
            #expect(try store.read { try $0.itemTypes() } == ["notes"])
            let skipped = try store.skippedTables()
            #expect(skipped.first { $0.name == "docs" }?.reason == .virtualTable)
            #expect(skipped.filter { $0.reason == .shadowTable }.map(\.name).sorted()
                == ["docs_config", "docs_content", "docs_data", "docs_docsize", "docs_idx"])
            expectError(.invalidArgument) { try store.writeSync { try $0.insert(Item(itemType: "docs", id: 1)) } }
        }
    }

    @Test("a row whose key is NULL is reported as corrupt, naming the table")
    func nullKeyIsCorrupt() throws {
        let sql = "CREATE TABLE codes (code TEXT PRIMARY KEY, v); INSERT INTO codes VALUES ('a', 1), (NULL, 2);"
        try withFileStore(creatingWith: sql) { store, path throws in
            let error = expectError(.corrupt) { try allItems(store, "codes") }
            #expect(error?.message.contains("\"codes\"") == true)
            #expect(error?.path == path)
            #expect(try store.read { try $0.item(ofType: "codes", id: "a") }?["v"] == 1)
        }
    }

    @Test("a created item is inserted with its values, so NOT NULL columns of a legacy table accept it")
    func createdItemsFillNotNullColumns() throws {
        try withFileStore(creatingWith: "CREATE TABLE todo (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0)") { store, path in
            try store.writeSync { accessor in
                let todo = try accessor.createItem(ofType: "todo", id: 1)
                todo["title"] = "Buy milk"
                #expect(try accessor.item(ofType: "todo", id: 1)?["title"] == "Buy milk")
            }
            expectError(.invalidArgument) {
                try store.writeSync { accessor in _ = try accessor.createItem(ofType: "todo", id: 2) }
            }
            let raw = try RawDatabase(path)
            defer { raw.close() }
            #expect(try raw.rows("SELECT id, title, done FROM todo") == [[.integer(1), .text("Buy milk"), .integer(0)]])
        }
    }

    @Test("foreign keys are enforced on the store's connection, though the legacy program left them off")
    func foreignKeysTurnedOn() throws {
        let schema = """
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE book (id INTEGER PRIMARY KEY, author_id INTEGER REFERENCES author (id) ON DELETE CASCADE);
            INSERT INTO author VALUES (1, 'Ann');
            INSERT INTO book VALUES (10, 1);
            """
        try withFileStore(creatingWith: schema) { store, path in
            expectError(.referenceViolation) {
                try store.writeSync { accessor in
                    try accessor.insert(Item(itemType: "book", id: 11, attributes: ["author_id": 99]))
                }
            }
            try store.writeSync { accessor in _ = try accessor.deleteItem(ofType: "author", id: 1) }
            #expect(try allItems(store, "book").isEmpty)
            #expect(try store.withRawHandle { db in try Self.integer(db, "PRAGMA foreign_keys") } == 1)
        }
    }

    private static func integer(_ db: SQLiteDataStore.RawHandle, _ sql: String) throws -> Int64 {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, sqlite3_step(statement) == SQLITE_ROW else {
            sqlite3_finalize(statement)
            throw DataStoreError(.io, "cannot run \(sql)")
        }
        defer { sqlite3_finalize(statement) }
        return sqlite3_column_int64(statement, 0)
    }
}
