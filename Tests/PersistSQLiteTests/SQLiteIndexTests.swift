import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

@Suite("SQLite indexes are real indexes")
struct SQLiteIndexTests {
    /// The SQL of every index of `table`, from `sqlite_schema`.
    /// The SQL of the table's indexes, but for the unique index on the key of a table the store
    /// created (`persist_key:<type>`), which is the key rather than an index of the items.
    static func indexSQL(_ path: String, _ table: String) throws -> [String] {
        let raw = try RawDatabase(path)
        defer { raw.close() }
        return try raw.rows("SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?1 AND sql IS NOT NULL "
                                + "AND name NOT LIKE 'persist\\_key:%' ESCAPE '\\' ORDER BY name",
                            [.text(table)]).compactMap { row in
            if case .text(let sql) = row[0] { return sql }
            return nil
        }
    }

    @Test("ensureIndex runs CREATE INDEX, and a query on the attribute uses it")
    func createIndex() throws {
        try withFileStore { store, path in
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "Restaurant", id: "a", attributes: ["city": "Leeds"]))
                try accessor.ensureIndex(ofType: "Restaurant", on: ["city"], unique: false)
                try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true)
            }
            #expect(try Self.indexSQL(path, "Restaurant") == ["CREATE INDEX \"persist_index_1\" ON \"Restaurant\" (\"city\")"])
            // The User table does not exist yet: its index waits for the table and column.
            #expect(try Self.indexSQL(path, "User").isEmpty)
            #expect(try store.indexes(ofType: "User").map(\.attributes) == [["email"]])
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "User", id: "u", attributes: ["email": "u@example.com"]))
            }
            #expect(try Self.indexSQL(path, "User") == ["CREATE UNIQUE INDEX \"persist_index_2\" ON \"User\" (\"email\")"])
            let raw = try RawDatabase(path)
            defer { raw.close() }
            let plan = try raw.rows("EXPLAIN QUERY PLAN SELECT * FROM \"Restaurant\" WHERE \"city\" = 'Leeds'")
            #expect(plan.contains { row in
                row.contains { value in
                    if case .text(let detail) = value { return detail.contains("INDEX persist_index_1 (city=?)") }
                    return false
                }
            })
        }
    }

    @Test("an index on a legacy column with another collation compares bytes, as Persist does")
    func binaryCollation() throws {
        try withFileStore(creatingWith: "CREATE TABLE user (id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE);"
                            + "INSERT INTO user (name) VALUES ('ann'), ('Ann');") { store, path in
            try store.writeSync { accessor in try accessor.ensureIndex(ofType: "user", on: ["name"], unique: true) }
            #expect(try Self.indexSQL(path, "user") == ["CREATE UNIQUE INDEX \"persist_index_1\" ON \"user\" (\"name\" COLLATE BINARY)"])
            expectError(.uniqueViolation) {
                try store.writeSync { accessor in try accessor.insert(Item(itemType: "user", id: 9, attributes: ["name": "ann"])) }
            }
        }
    }

    @Test("adopted indexes and UNIQUE constraints are reported, and a UNIQUE constraint names the items it refuses")
    func adopted() throws {
        let schema = """
            CREATE TABLE account (id INTEGER PRIMARY KEY, email TEXT UNIQUE, city TEXT, zip TEXT, note TEXT);
            CREATE INDEX account_place ON account (city, zip);
            CREATE INDEX account_lower ON account (lower(note));
            CREATE INDEX account_partial ON account (note) WHERE note IS NOT NULL;
            INSERT INTO account (email, city) VALUES ('a@example.com', 'Leeds');
            """
        try withFileStore(creatingWith: schema) { store, _ in
            let indexes = try store.indexes(ofType: "account")
            #expect(indexes.map(\.attributes) == [["city", "zip"], ["email"]])
            #expect(indexes.map(\.isUnique) == [false, true])
            #expect(indexes.map(\.name) == ["account_place", "sqlite_autoindex_account_1"])
            #expect(try store.writeSync { accessor in try accessor.ensureIndex(ofType: "account", on: ["email"], unique: true) } == false)
            // Declared first, then the adopted ones by name, as on PostgreSQL.
            #expect(try store.writeSync { accessor in try accessor.ensureIndex(ofType: "account", on: ["note"], unique: false) })
            #expect(try store.indexes(ofType: "account").map(\.attributes) == [["note"], ["city", "zip"], ["email"]])
            let error = expectError(.uniqueViolation) {
                try store.writeSync { accessor in
                    try accessor.insert(Item(itemType: "account", id: 7, attributes: ["email": "a@example.com"]))
                }
            }
            #expect(error?.items == [ItemReference(itemType: "account", id: 7), ItemReference(itemType: "account", id: 1)])
            #expect(error?.engineCode == 2067)
        }
    }

    @Test("a duplicate only a legacy column's collation sees (NOCASE) is a uniqueViolation naming both items")
    func collationDuplicateNamesHolder() throws {
        try withFileStore(creatingWith: """
            CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE UNIQUE, city TEXT,
                              code TEXT COLLATE NOCASE, UNIQUE (city, code));
            INSERT INTO tag (id, name, city, code) VALUES (1, 'swift', 'Leeds', 'ls'), (2, 'rust', 'York', 'yo');
            """) { store, _ in
            let cases: [(attributes: [String: Value], holder: ItemID)] = [
                (["name": "SWIFT"], 1), (["city": "York", "code": "YO"], 2),
            ]
            for (attributes, holder) in cases {
                let error = expectError(.uniqueViolation) {
                    try store.writeSync { accessor in
                        try accessor.insert(Item(itemType: "tag", id: 3, attributes: attributes))
                    }
                }
                let expected = [ItemReference(itemType: "tag", id: 3), ItemReference(itemType: "tag", id: holder)]
                #expect(error?.items == expected)
            }
            let remaining = try allItems(store, "tag").map(\.id)
            #expect(remaining == [1, 2])
        }
    }

    @Test("an adopted index that covers the key column or a generated column is not reported, as on PostgreSQL")
    func adoptedOverKey() throws {
        let schema = """
            CREATE TABLE t (code TEXT PRIMARY KEY, email TEXT, n INTEGER,
                            g TEXT GENERATED ALWAYS AS (email || '!') VIRTUAL, UNIQUE (code, email));
            CREATE UNIQUE INDEX t_n_code ON t (n, code);
            CREATE INDEX t_g ON t (g);
            CREATE INDEX t_email_n ON t (email, n);
            CREATE TABLE w (id INTEGER PRIMARY KEY, e TEXT) WITHOUT ROWID;
            CREATE UNIQUE INDEX w_id_e ON w (id, e);
            """
        try withFileStore(creatingWith: schema) { store, _ in
            // The items hold email and n: code is their identifier, g is computed.
            let reported = (try store.indexes(ofType: "t"), try store.indexes(ofType: "w"))
            #expect(reported.0.map(\.name) == ["t_email_n"])
            #expect(reported.1.isEmpty)
            // Declaring such an index is refused as before, not found already satisfied.
            expectError(.invalidArgument) {
                try store.writeSync { accessor in try accessor.ensureIndex(ofType: "t", on: ["code", "email"], unique: true) }
            }
        }
    }

    @Test("declared indexes are kept in the database and reported after reopening")
    func reopened() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.sqlite")
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        try store.writeSync { accessor in try accessor.ensureIndex(ofType: "Note", on: ["tag", "day"], unique: false) }
        try store.tearDown()
        try store.setup()
        defer { try? store.tearDown() }
        let indexes = try store.indexes(ofType: "Note")
        #expect(indexes.map(\.attributes) == [["tag", "day"]])
        #expect(indexes.first?.name == "persist_index_1")
        #expect(try store.read { accessor in try accessor.itemTypes() }.isEmpty)
        #expect(try store.skippedTables().isEmpty)
    }

    @Test("an index declared by another connection before its table exists is seen, and enforced, by a store that read the schema before")
    func declaredElsewhere() throws {
        try withFileStore { first, path in
            try first.writeSync { accessor in try accessor.ensureIndex(ofType: "Note", on: ["tag"], unique: false) }
            #expect(try first.indexes(ofType: "User").isEmpty)
            let second = SQLiteDataStore(path: path, options: quietOptions())
            try second.setup()
            defer { try? second.tearDown() }
            // Only a row of the table of declared indexes: no table, no column, no SQL index yet.
            try second.writeSync { accessor in try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true) }
            #expect(try first.indexes(ofType: "User").map(\.attributes) == [["email"]])
            let error = expectError(.uniqueViolation) {
                try first.writeSync { accessor in
                    try accessor.insert(Item(itemType: "User", id: 1, attributes: ["email": "a@example.com"]))
                    try accessor.insert(Item(itemType: "User", id: 2, attributes: ["email": "a@example.com"]))
                }
            }
            #expect(error?.items == [ItemReference(itemType: "User", id: 2), ItemReference(itemType: "User", id: 1)])
            #expect(try first.read { accessor in try accessor.itemTypes() }.isEmpty)
        }
    }

    @Test("a legacy ON CONFLICT REPLACE never makes a write delete another row: insert, save and updateItems are refused")
    func conflictReplace() throws {
        try withFileStore(creatingWith: """
            CREATE TABLE t (id INTEGER PRIMARY KEY ON CONFLICT REPLACE, email TEXT UNIQUE ON CONFLICT REPLACE);
            INSERT INTO t VALUES (1, 'a'), (2, 'b');
            """) { store, _ throws in
            let rows = [Item(itemType: "t", id: 1, attributes: ["email": "a"]), Item(itemType: "t", id: 2, attributes: ["email": "b"])]
            expectError(.alreadyExists) {
                try store.writeSync { try $0.insert(Item(itemType: "t", id: 2, attributes: ["email": "c"])) }
            }
            expectError(.uniqueViolation) {
                try store.writeSync { try $0.insert(Item(itemType: "t", id: 3, attributes: ["email": "a"])) }
            }
            expectError(.uniqueViolation) {
                try store.writeSync { try $0.save(Item(itemType: "t", id: 1, attributes: ["email": "b"])) }
            }
            expectError(.uniqueViolation) {
                try store.writeSync { accessor in
                    try accessor.updateItems(forRequest: DataStoreRequest(itemType: "t", limit: 1), setting: ["email": "b"])
                }
            }
            #expect(try allItems(store, "t") == rows)
        }
    }
}
