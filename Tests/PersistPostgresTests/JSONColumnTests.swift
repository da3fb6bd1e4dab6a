import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// Values written to adopted `json` and `jsonb` columns read back as they were written.
@Suite("PostgresDataStore writes adopted json and jsonb columns so that they read back as written")
struct JSONColumnTests {
    @Test("whole doubles of 1e16 and beyond stay doubles in json and jsonb, and legacy SQL sees their numbers",
          arguments: [1e16, -1e16, 1.5e17, 9.2e18, -9.223372036854775808e18, 1e22, 1e300, 1234.0])
    func wholeDoubles(_ number: Double) throws {
        try withPostgresStore(creatingWith: "CREATE TABLE doc (id integer PRIMARY KEY, doc json, docb jsonb)") { store, schema in
            let item = Item(itemType: "doc", id: 1, attributes: [
                "doc": ["n": .double(number)], "docb": [.double(number), ["n": .double(number)]],
            ])
            try store.writeSync { try $0.insert(item) }
            #expect(try store.read { try $0.item(ofType: "doc", id: 1) } == item)
            let connection = try TestServer.connect()
            defer { connection.close() }
            let row = try connection.executeScript("""
                SELECT ((doc->>'n')::numeric = (docb->>0)::numeric AND (docb->1->>'n')::float8 = \(number)::float8)::text
                FROM \(schema).doc
                """)
            #expect(try row.text(0, 0) == "true")
        }
    }

    @Test("a legacy json string with a lone surrogate escape, which json keeps, reads as U+FFFD, and the table stays readable")
    func loneSurrogates() throws {
        try withPostgresStore(creatingWith: """
            CREATE TABLE doc (id integer PRIMARY KEY, body json);
            INSERT INTO doc VALUES (1, '"cut \\ud83d"'), (2, '["\\ude00", "\\ud83d\\u0041", "\\ud83d\\ude00"]'), (3, '{"k": 1}');
            """) { store, _ in
            let bodies = try allItems(store, "doc").map { $0["body"] }
            #expect(bodies == [
                "cut \u{FFFD}", ["\u{FFFD}", "\u{FFFD}A", "\u{1F600}"], ["k": 1],
            ])
        }
    }

    @Test("legacy JSON nested as deep as Persist values go reads; deeper is unsupported, naming the item and the column, not corrupt")
    func nesting() throws {
        let deepest = BinaryValueCoding.maximumDepth
        try withPostgresStore(creatingWith: """
            CREATE TABLE doc (id integer PRIMARY KEY, body json, bodyb jsonb, name text);
            INSERT INTO doc VALUES (1, (repeat('[', \(deepest)) || repeat(']', \(deepest)))::json,
                (repeat('{"a":', \(deepest - 1)) || '{}' || repeat('}', \(deepest - 1)))::jsonb, 'fits'),
                (2, (repeat('[', \(deepest + 1)) || repeat(']', \(deepest + 1)))::json, NULL, 'deep'),
                (3, NULL, (repeat('{"a":', \(deepest)) || '{}' || repeat('}', \(deepest)))::jsonb, 'deep b');
            """) { store, _ in
            let fits = try #require(try store.read { try $0.item(ofType: "doc", id: 1) })
            #expect(fits["body"]?.nestingDepth == deepest && fits["bodyb"]?.nestingDepth == deepest)
            // What was read is an item that can be written back.
            try store.writeSync { try $0.save(fits.setting(["name": "saved"])) }
            for (id, column) in [(2, "body"), (3, "bodyb")] {
                let error = expectError(.unsupported) { try store.read { try $0.item(ofType: "doc", id: .int(Int64(id))) } }
                #expect(error?.message.contains("\"\(column)\"") == true && error?.message.contains("512 levels") == true,
                        "\(String(describing: error))")
                #expect(error?.items == [ItemReference(itemType: "doc", id: .int(Int64(id)))])
            }
        }
    }
}
