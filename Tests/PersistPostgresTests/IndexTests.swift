import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// Declared indexes are real PostgreSQL indexes; adopted ones are listed.
@Suite("PostgresDataStore keeps indexes in PostgreSQL")
struct PostgresIndexTests {
    /// The definitions of the indexes of `table` in `schema`, by name.
    static func definitions(_ schema: String, _ table: String) throws -> [String: String] {
        let connection = try TestServer.connect()
        defer { connection.close() }
        let result = try connection.execute(
            "SELECT indexname::text, indexdef FROM pg_catalog.pg_indexes WHERE schemaname = $1 AND tablename = $2",
            [.text(schema), .text(table)])
        var definitions: [String: String] = [:]
        for row in 0..<result.rowCount { definitions[try result.text(row, 0) ?? ""] = try result.text(row, 1) ?? "" }
        return definitions
    }

    @Test("ensureIndex creates a real index once the table and columns exist, UNIQUE for a unique one")
    func realIndexes() throws {
        try withPostgresStore { store, schema in
            try store.writeSync { accessor in
                _ = try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true)
                _ = try accessor.ensureIndex(ofType: "User", on: ["city", "name"], unique: false)
            }
            #expect(try Self.definitions(schema, "User").isEmpty)
            try store.writeSync { try $0.insert(Item(itemType: "User", id: "a", attributes: ["email": "a@x", "city": "Leeds"])) }
            var definitions = try Self.definitions(schema, "User")
            #expect(definitions["persist_index_1"]?.contains("CREATE UNIQUE INDEX") == true)
            #expect(definitions["persist_index_2"] == nil)
            try store.writeSync { try $0.insert(Item(itemType: "User", id: "b", attributes: ["email": "b@x", "name": "Bo"])) }
            definitions = try Self.definitions(schema, "User")
            #expect(definitions["persist_index_2"]?.contains("(city, name)") == true)
            let error = expectError(.uniqueViolation) {
                try store.writeSync { try $0.insert(Item(itemType: "User", id: "c", attributes: ["email": "a@x"])) }
            }
            #expect(error?.engineCode == PostgresSQLState.uniqueViolation.engineCode)
            #expect(Set(error?.items ?? []) == [ItemReference(itemType: "User", id: "a"), ItemReference(itemType: "User", id: "c")])
            #expect(try allItems(store, "User").map(\.id) == ["a", "b"])
        }
    }

    @Test("a unique index over a widened column compares 1 and 1.0 as equal")
    func widenedColumn() throws {
        try withPostgresStore { store, schema in
            try store.writeSync { accessor in
                _ = try accessor.ensureIndex(ofType: "Seat", on: ["number"], unique: true)
                try accessor.insert(Item(itemType: "Seat", id: "a", attributes: ["number": 1]))
                try accessor.insert(Item(itemType: "Seat", id: "b", attributes: ["number": "one"]))
            }
            #expect(try Self.definitions(schema, "Seat")["persist_index_1"]?.contains("get_byte") == true)
            expectError(.uniqueViolation) {
                try store.writeSync { try $0.insert(Item(itemType: "Seat", id: "c", attributes: ["number": 1.0])) }
            }
            try store.writeSync { try $0.insert(Item(itemType: "Seat", id: "d", attributes: ["number": 2.0])) }
            #expect(try allItems(store, "Seat").map(\.id) == ["a", "b", "d"])
        }
    }

    @Test("an update a unique index refuses changes no item, and the block goes on")
    func refusedUpdate() throws {
        try withPostgresStore { store, _ in
            try store.writeSync { accessor in
                _ = try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true)
                try accessor.insert(Item(itemType: "User", id: "a", attributes: ["email": "a", "n": 1]))
                try accessor.insert(Item(itemType: "User", id: "b", attributes: ["email": "b", "n": 2]))
            }
            try store.writeSync { accessor in
                expectError(.uniqueViolation) {
                    try accessor.updateItems(forRequest: DataStoreRequest(itemType: "User"),
                                             setting: ["email": "z", "n": 0, "nick": "x"])
                }
                // The column added for "nick" went with the refused update, in the store's
                // schema as in PostgreSQL's, so the next write does not name it.
                try accessor.insert(Item(itemType: "User", id: "c", attributes: ["email": "c"]))
            }
            #expect(try allItems(store, "User").map { $0["n"] } == [1, 2, nil])
            #expect(try allItems(store, "User").allSatisfy { $0["nick"] == nil })
        }
    }

    @Test("a unique index over an adopted case-insensitive text column tells \"Rust\" from \"rust\", as predicates do")
    func nondeterministicCollation() throws {
        try withPostgresStore(creatingWith: """
            CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
            CREATE TABLE tag (id integer PRIMARY KEY, name text COLLATE ci, label varchar(10) COLLATE ci);
            INSERT INTO tag VALUES (1, 'Swift', 'A'), (2, 'swift', 'a');
            """) { store, _ in
            try store.writeSync { accessor in
                #expect(try accessor.ensureIndex(ofType: "tag", on: ["name"], unique: true) == true)
                #expect(try accessor.ensureIndex(ofType: "tag", on: ["label"], unique: true) == true)
                try accessor.insert(Item(itemType: "tag", id: 3, attributes: ["name": "Rust", "label": "B"]))
                try accessor.insert(Item(itemType: "tag", id: 4, attributes: ["name": "rust", "label": "b"]))
                let error = expectError(.uniqueViolation) {
                    try accessor.insert(Item(itemType: "tag", id: 5, attributes: ["name": "Rust"]))
                }
                #expect(Set(error?.items ?? []) == [ItemReference(itemType: "tag", id: 3), ItemReference(itemType: "tag", id: 5)])
            }
            #expect(try allItems(store, "tag").map(\.id) == [1, 2, 3, 4])
        }
    }

    @Test("adopted indexes and UNIQUE constraints are listed; expression and partial indexes are not")
    func adopted() throws {
        let sql = """
            CREATE TABLE member (id integer PRIMARY KEY, email text UNIQUE, city text, name text);
            CREATE INDEX member_city ON member (city, name);
            CREATE INDEX member_lower ON member (lower(name));
            CREATE INDEX member_partial ON member (name) WHERE city IS NOT NULL;
            """
        try withPostgresStore(creatingWith: sql) { store, _ in
            let indexes = try store.indexes(ofType: "member")
            #expect(Set(indexes.map { "\($0.attributes)/\($0.isUnique)" }) == ["[\"city\", \"name\"]/false", "[\"email\"]/true"])
            let created = try store.writeSync { accessor in
                (try accessor.ensureIndex(ofType: "member", on: ["email"], unique: false),
                 try accessor.ensureIndex(ofType: "member", on: ["name"], unique: false))
            }
            #expect(created == (false, true))
            // Declared first, then the adopted ones by name, as on SQLite.
            let listed = try store.indexes(ofType: "member")
            #expect(listed.map(\.attributes) == [["name"], ["city", "name"], ["email"]])
            #expect(listed.dropFirst().map(\.name) == ["member_city", "member_email_key"])
        }
    }

    @Test("an index over a generated column is refused and not declared, as on SQLite, and an adopted one is not listed; one over key columns is declared")
    func unnamable() throws {
        let sql = """
            CREATE TABLE t (code text PRIMARY KEY, email text, n integer, g text GENERATED ALWAYS AS (email || '!') STORED);
            CREATE INDEX t_g ON t (g);
            CREATE UNIQUE INDEX t_n_code ON t (n, code);
            CREATE INDEX t_email_n ON t (email, n);
            """
        try withPostgresStore(creatingWith: sql) { store, _ in
            let error = expectError(.invalidArgument) {
                try store.writeSync { accessor in try accessor.ensureIndex(ofType: "t", on: ["g"], unique: true) }
            }
            #expect(error?.message.contains("nothing was declared") == true)
            // Key columns can be indexed by name: a relation through part of a composite key needs it.
            for attributes in [["code"], ["email", "code"]] {
                try store.writeSync { accessor in try accessor.ensureIndex(ofType: "t", on: attributes, unique: true) }
            }
            let indexes = try store.indexes(ofType: "t")
            #expect(indexes.map(\.name) == ["persist_index_1", "persist_index_2", "t_email_n"])
        }
    }

    @Test("an invalid index a failed CREATE INDEX CONCURRENTLY left is not listed, and ensureIndex declares its own")
    func invalidAdopted() throws {
        let sql = "CREATE TABLE member (id integer PRIMARY KEY, email text); INSERT INTO member VALUES (1, 'a'), (2, 'a');"
        try withPostgresStore(creatingWith: sql) { store, schema in
            let connection = try TestServer.connect()
            defer { connection.close() }
            // CONCURRENTLY runs outside a transaction: the build fails on the duplicates and leaves the index INVALID.
            #expect(throws: DataStoreError.self) {
                try connection.executeScript("CREATE UNIQUE INDEX CONCURRENTLY member_email ON \(schema).member (email)")
            }
            #expect(try Self.definitions(schema, "member")["member_email"] != nil)
            #expect(try store.indexes(ofType: "member").isEmpty)
            let error = expectError(.uniqueViolation) {
                try store.writeSync { try $0.ensureIndex(ofType: "member", on: ["email"], unique: true) }
            }
            #expect(Set(error?.items ?? []) == [ItemReference(itemType: "member", id: 1), ItemReference(itemType: "member", id: 2)])
        }
    }
}
