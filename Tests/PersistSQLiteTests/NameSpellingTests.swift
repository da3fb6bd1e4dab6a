import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

/// Legacy tables, or columns of one table, whose names are two Unicode spellings of one name:
/// Swift finds them equal, so they cannot both be item types or attributes.
@Suite("SQLite skips tables and columns whose names are two spellings of one name")
struct NameSpellingTests {
    private static let composed = TwoSpellings.composed
    private static let decomposed = TwoSpellings.decomposed

    private func withDatabase(_ sql: String, _ body: (SQLiteDataStore, RawDatabase) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("names.sqlite")
        let raw = try RawDatabase(path)
        defer { raw.close() }
        try raw.exec(sql)
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        try body(store, raw)
    }

    @Test("of two tables spelled alike, the one met first is the item type and the other is reported")
    func tablesSpelledAlike() throws {
        let sql = """
            CREATE TABLE "\(Self.composed)" (id INTEGER PRIMARY KEY, v TEXT);
            CREATE TABLE "\(Self.decomposed)" (id INTEGER PRIMARY KEY, v TEXT);
            INSERT INTO "\(Self.composed)" VALUES (1, 'composed');
            INSERT INTO "\(Self.decomposed)" VALUES (1, 'decomposed'), (2, 'decomposed');
            """
        try withDatabase(sql) { store, raw in
            let skipped = try store.skippedTables()
            TwoSpellings.expectDecomposedKept(itemTypes: try store.read { try $0.itemTypes() }, skipped: skipped.map { table in
                guard case .ambiguousName(let detail) = table.reason else { return (table.name, nil) }
                return (table.name, detail)
            })
            // Either spelling names the kept table; the other table is never touched.
            try store.writeSync { accessor in
                try accessor.save(Item(itemType: Self.composed, id: 1, attributes: ["v": "written"]))
                try accessor.deleteAllItems(ofType: Self.composed)
            }
            #expect(try raw.rows(#"SELECT id, v FROM "\#(Self.composed)""#) == [[.integer(1), .text("composed")]])
            #expect(try raw.rows(#"SELECT count(*) FROM "\#(Self.decomposed)""#) == [[.integer(0)]])
        }
    }

    @Test("a table the store created is kept over a legacy table spelled alike, whichever comes first")
    func createdTableKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("names.sqlite")
        let writer = SQLiteDataStore(path: path, options: quietOptions())
        try writer.setup()
        try writer.writeSync { try $0.insert(Item(itemType: Self.composed, id: 1, attributes: ["v": "persisted"])) }
        try writer.tearDown()
        let raw = try RawDatabase(path)
        defer { raw.close() }
        try raw.exec(#"CREATE TABLE "\#(Self.decomposed)" (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO "\#(Self.decomposed)" VALUES (7, 'legacy')"#)
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: Self.decomposed)) }
                == [Item(itemType: Self.composed, id: 1, attributes: ["v": "persisted"])])
        let skipped = try store.skippedTables()
        #expect(skipped.map(\.name).contains { $0.utf8.elementsEqual(Self.decomposed.utf8) })
    }

    @Test("a table with two columns spelled alike is skipped, not read or written through one of them")
    func columnsSpelledAlike() throws {
        let sql = """
            CREATE TABLE t (id INTEGER PRIMARY KEY, "na\u{EF}ve" TEXT, "nai\u{308}ve" TEXT);
            INSERT INTO t VALUES (1, 'composed', 'decomposed');
            """
        try withDatabase(sql) { store, raw in
            #expect(try store.read { try $0.itemTypes() }.isEmpty)
            let skipped = try store.skippedTables()
            guard case .ambiguousName(let detail)? = skipped.first(where: { $0.name == "t" })?.reason else {
                Issue.record("t is not reported as an ambiguous name: \(skipped)")
                return
            }
            #expect(detail.contains("columns"))
            #expect(try raw.rows("SELECT * FROM t") == [[.integer(1), .text("composed"), .text("decomposed")]])
        }
    }
}
