import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// The tables the store creates: native column types by kind, the metadata tables, widening,
/// long names, and what plain SQL sees.
@Suite("PostgresDataStore's storage format")
struct StorageFormatTests {
    /// The declared type of each column of a table, as `format_type` prints it.
    static func columnTypes(_ schema: String, _ table: String) throws -> [String: String] {
        let connection = try TestServer.connect()
        defer { connection.close() }
        let result = try connection.execute("""
            SELECT a.attname::text, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a \
            WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped
            """, [.text("\"\(schema)\".\"\(table)\"")])
        var types: [String: String] = [:]
        for row in 0..<result.rowCount { types[try result.text(row, 0) ?? ""] = try result.text(row, 1) }
        return types
    }

    /// Runs one SQL query as text, as psql would show it.
    static func sql(_ query: String) throws -> [[String?]] {
        let connection = try TestServer.connect()
        defer { connection.close() }
        let result = try connection.executeScript(query)
        return try (0..<result.rowCount).map { row in try (0..<result.columnCount).map { try result.text(row, $0) } }
    }

    @Test("each kind gets a native column type, recorded in persist_columns")
    func nativeTypes() throws {
        try withPostgresStore { store, schema in
            try seed(store, [Item(itemType: "Restaurant", id: 1, attributes: [
                "open": true, "rating": 4, "score": 4.5, "name": "Pizza", "logo": .bytes([1]),
                "opened": .date(Date(timeIntervalSinceReferenceDate: 0.5)), "tags": ["a"], "menu": ["pizza": 9],
            ])])
            let types = try Self.columnTypes(schema, "Restaurant")
            #expect(types == [
                "persist_id": "bigint", "open": "boolean", "rating": "bigint", "score": "double precision",
                "name": "text", "logo": "bytea", "opened": "\(schema).persist_date", "tags": "bytea", "menu": "bytea",
            ])
            let kinds = try Self.sql("SELECT column_name, kind FROM \(schema).persist_columns ORDER BY column_name")
            #expect(kinds.map { $0.compactMap { $0 } } == [
                ["logo", "bytes"], ["menu", "object"], ["name", "string"], ["open", "bool"], ["opened", "date"],
                ["rating", "int"], ["score", "double"], ["tags", "array"],
            ])
            // What psql shows: plain values, and the date as a timestamp with its exact seconds.
            let row = try Self.sql("SELECT name, rating::text, open::text, opened::text FROM \(schema).\"Restaurant\"")
            #expect(row == [["Pizza", "4", "true", "(\"2001-01-01 00:00:00.5+00\",0.5)"]])
        }
    }

    @Test("dates keep every bit, beyond timestamptz's microseconds")
    func dates() throws {
        try withPostgresStore { store, schema in
            let dates = [0.123456789, -1e9 + 0.5e-7, 1e15, .nan, .infinity, -.infinity, -0.0, 700_000_000.000_000_1]
            let items = dates.enumerated().map { Item(itemType: "Event", id: .int(Int64($0)), attributes: ["at": .date(Date(timeIntervalSinceReferenceDate: $1))]) }
            try seed(store, items)
            #expect(try allItems(store, "Event") == items)
            let shown = try Self.sql("SELECT (at).at::text FROM \(schema).\"Event\" ORDER BY persist_id")
            #expect(shown.map { $0[0] } == ["2001-01-01 00:00:00.123457+00", "1969-04-24 22:13:20+00", "infinity", nil,
                                           "infinity", "-infinity", "2001-01-01 00:00:00+00", "2023-03-08 20:26:40+00"])
        }
    }

    @Test("a column that meets another kind widens to the mixed encoding, losslessly, and still filters and sorts")
    func widening() throws {
        try withPostgresStore { store, schema in
            func note(_ id: Int64, _ value: Value) -> Item { Item(itemType: "Note", id: .int(id), attributes: ["v": value]) }
            let first = [note(1, 5), note(2, 7)]
            try seed(store, first)
            // A reader that read the typed column must not keep using it.
            #expect(try allItems(store, "Note") == first)
            let mixed = [note(3, 2.5), note(4, "five"), note(5, .bytes([5])), note(6, true), note(7, "nul\u{0}"),
                         note(8, .date(Date(timeIntervalSinceReferenceDate: 3))), note(9, [1]), note(10, .double(.nan)),
                         note(11, .double(-0.0)), note(12, .int(.min))]
            try seed(store, mixed)
            #expect(try allItems(store, "Note") == first + mixed)
            #expect(try Self.columnTypes(schema, "Note")["v"] == "bytea")
            var request = DataStoreRequest(itemType: "Note")
            request.filter = .attribute("v") >= 2.5
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [1, 2, 3])
            request.filter = .attribute("v") < 2.5
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [10, 11, 12])
            request.filter = .attribute("v") == 0
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [11])
            request.filter = .attribute("v").beginsWith("nul")
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [7])
            request.filter = nil
            request.sortDescriptors = [.descending("v")]
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [9, 5, 7, 4, 8, 2, 1, 3, 11, 12, 10, 6])
            // A new store object reads the widened column too.
            let reopened = PostgresDataStore(url: try TestServer.url(), options: TestStores.quietOptions { $0.schema = schema })
            try reopened.setup()
            defer { try? reopened.tearDown() }
            #expect(try allItems(reopened, "Note") == first + mixed)
        }
    }

    @Test("a key that meets identifiers of another kind widens, and every identifier still finds its item")
    func keyWidening() throws {
        try withPostgresStore { store, schema in
            let ids: [ItemID] = [3, -1, "b", "a\u{0}", .bytes([0]), .int(.max), ""]
            for id in ids { try seed(store, [Item(itemType: "Key", id: id, attributes: ["copy": id.value])]) }
            #expect(try allItems(store, "Key").map(\.id) == ids.sorted())
            for id in ids { #expect(try store.read { try $0.item(ofType: "Key", id: id) }?["copy"] == id.value) }
            #expect(try Self.columnTypes(schema, "Key")["persist_id"] == "bytea")
            #expect(try Self.sql("SELECT key_kind FROM \(schema).persist_tables") == [["mixed"]])
        }
    }

    @Test("names longer than PostgreSQL's 63 bytes get shortened SQL names, recorded in the metadata")
    func longNames() throws {
        try withPostgresStore { store, schema in
            let type = String(repeating: "Ü", count: 40)
            let attribute = String(repeating: "a", count: 100)
            let other = String(repeating: "a", count: 99) + "b"
            let item = Item(itemType: type, id: "x", attributes: [attribute: 1, other: 2])
            try seed(store, [item])
            #expect(try allItems(store, type) == [item])
            let tables = try Self.sql("SELECT table_name, item_type FROM \(schema).persist_tables")
            #expect(tables.count == 1)
            #expect(tables.first?[1] == type)
            #expect((tables.first?[0]?.utf8.count ?? 100) <= 63)
            #expect(try store.read { try $0.itemTypes() } == [type])
        }
    }

    @Test("the store's own names are not refused: an item type named like its metadata gets a table of its own")
    func reservedNames() throws {
        try withPostgresStore { store, _ in
            let items = ["persist_tables", "persist_columns", "persist_date"].map {
                Item(itemType: $0, id: 1, attributes: ["persist_id": "an attribute named like the key"])
            }
            try seed(store, items)
            for item in items { #expect(try allItems(store, item.itemType) == [item]) }
        }
    }

    @Test("an item type named like a relation that is not an item type is refused")
    func takenNames() throws {
        try withPostgresStore(creatingWith: "CREATE VIEW busy AS SELECT 1 AS one") { store, _ in
            let error = expectError(.invalidArgument) { try seed(store, [Item(itemType: "busy", id: 1)]) }
            #expect(error?.message.contains("busy") == true)
        }
    }

    @Test("dropCreatedTables drops what the store made and leaves adopted tables")
    func dropCreatedTables() throws {
        try withPostgresStore(creatingWith: "CREATE TABLE kept (id integer PRIMARY KEY)") { store, schema in
            try seed(store, [Item(itemType: "made", id: 1, attributes: ["at": .date(Date())]),
                             Item(itemType: "kept", id: 1, attributes: ["extra": "added column"])])
            try store.tearDown()
            try PostgresDataStore.dropCreatedTables(at: TestServer.url(), schema: schema, options: TestStores.quietOptions())
            let left = try Self.sql("SELECT relname::text FROM pg_class WHERE relnamespace = '\(schema)'::regnamespace "
                + "AND relkind = 'r' ORDER BY 1")
            #expect(left == [["kept"]])
            try store.setup()
            #expect(try allItems(store, "kept") == [Item(itemType: "kept", id: 1, attributes: ["extra": "added column"])])
            #expect(try allItems(store, "made").isEmpty)
        }
    }

    @Test("dropCreatedTables refuses a schema name PostgreSQL would cut to another schema's, or an empty one")
    func dropCreatedTablesRefusesLongNames() throws {
        for name in [String(repeating: "s", count: 64), ""] {
            let error = expectError(.invalidArgument) {
                try PostgresDataStore.dropCreatedTables(at: TestServer.url(), schema: name, options: TestStores.quietOptions())
            }
            #expect(error?.message.contains("63 bytes") == true)
        }
    }

    @Test("dropSchema refuses the shared schemas")
    func dropSchemaRefusesShared() throws {
        for name in ["public", "pg_catalog", "information_schema", ""] {
            expectError(.invalidArgument) { try PostgresDataStore.dropSchema(name, at: try TestServer.url()) }
        }
    }
}
