import Foundation
import Persist
import PersistConformance
import PersistPostgres
import PersistTestSupport
import Testing

/// Legacy tables, or columns of one table, whose names are two Unicode spellings of one name:
/// Swift finds them equal, so they cannot both be item types or attributes.
@Suite("PostgreSQL skips tables and columns whose names are two spellings of one name")
struct PostgresNameSpellingTests {
    private static let composed = TwoSpellings.composed
    private static let decomposed = TwoSpellings.decomposed

    @Test("of two tables spelled alike, the one met first is the item type; the other is reported and never written")
    func tablesSpelledAlike() throws {
        let sql = """
            CREATE TABLE "\(Self.composed)" (id integer PRIMARY KEY, v text);
            CREATE TABLE "\(Self.decomposed)" (id integer PRIMARY KEY, v text);
            INSERT INTO "\(Self.composed)" VALUES (1, 'composed');
            INSERT INTO "\(Self.decomposed)" VALUES (1, 'decomposed'), (2, 'decomposed');
            """
        try withPostgresStore(creatingWith: sql) { store, schema in
            let skipped = try store.skippedTables()
            TwoSpellings.expectDecomposedKept(itemTypes: try store.read { try $0.itemTypes() }, skipped: skipped.map { table in
                guard case .ambiguousName(let detail) = table.reason else { return (table.name, nil) }
                return (table.name, detail)
            })
            try store.writeSync { accessor in
                try accessor.save(Item(itemType: Self.composed, id: 1, attributes: ["v": "written"]))
                try accessor.deleteAllItems(ofType: Self.composed)
            }
            let connection = try TestServer.connect()
            defer { connection.close() }
            let composed = try connection.executeScript(#"SELECT v FROM \#(schema)."\#(Self.composed)""#)
            let value = try composed.text(0, 0)
            #expect(composed.rowCount == 1 && value == "composed")
            let decomposed = try connection.executeScript(#"SELECT count(*) FROM \#(schema)."\#(Self.decomposed)""#)
            #expect(try decomposed.text(0, 0) == "0")
        }
    }

    @Test("a table with two columns spelled alike is skipped, not read or written through one of them")
    func columnsSpelledAlike() throws {
        let sql = """
            CREATE TABLE t (id integer PRIMARY KEY, "na\u{EF}ve" text, "nai\u{308}ve" text);
            INSERT INTO t VALUES (1, 'composed', 'decomposed');
            """
        try withPostgresStore(creatingWith: sql) { store, _ in
            #expect(try store.read { try $0.itemTypes() }.isEmpty)
            let skipped = try store.skippedTables()
            guard case .ambiguousName(let detail)? = skipped.first(where: { $0.name == "t" })?.reason else {
                Issue.record("t is not reported as an ambiguous name: \(skipped)")
                return
            }
            #expect(detail.contains("columns"))
        }
    }

    @Test("a numeric type with a negative scale is named as declared in messages")
    func negativeScale() throws {
        try withPostgresStore(creatingWith: "CREATE TABLE n (id integer PRIMARY KEY, amount numeric(5, -2))") { store, _ in
            let error = expectError(.typeMismatch) {
                try store.writeSync { try $0.insert(Item(itemType: "n", id: 1, attributes: ["amount": "text"])) }
            }
            #expect(error?.message.contains("numeric(5, -2)") == true, "\(error?.message ?? "")")
        }
    }
}
