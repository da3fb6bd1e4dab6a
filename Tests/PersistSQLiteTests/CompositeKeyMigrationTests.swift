import Foundation
import Persist
import PersistSQLite
import PersistTestSupport
import Testing

/// SQLite → SQLite migrations of tables keyed by several columns, and of tables with no key.
@Suite("A migration recreates a composite PRIMARY KEY, and a table with no key as one")
struct CompositeKeyMigrationTests {
    func migrate(_ source: String, _ target: String) throws -> MigrationReport {
        let from = SQLiteDataStore(path: source, options: quietOptions { $0.readOnly = true })
        let to = SQLiteDataStore(path: target, options: quietOptions())
        try from.setup()
        try to.setup()
        defer {
            try? from.tearDown()
            try? to.tearDown()
        }
        return try Migration(source: from, target: to, options: MigrationOptions()).run()
    }

    @Test("PlaylistTrack and a WITHOUT ROWID table keep their keys, rows and key order; a keyless table its rowids")
    func sqliteToSQLite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.path("chinook.db")
        let raw = try RawDatabase(source)
        try raw.exec("""
            CREATE TABLE PlaylistTrack (PlaylistId INTEGER NOT NULL, TrackId INTEGER NOT NULL,
                PRIMARY KEY (PlaylistId, TrackId));
            INSERT INTO PlaylistTrack VALUES (1, 3402), (1, 3389), (2, 1);
            CREATE TABLE Tag (n INTEGER, name TEXT, v, PRIMARY KEY (name, n)) WITHOUT ROWID;
            INSERT INTO Tag VALUES (2, 'x', 'two'), (1, 'a', 'first');
            CREATE TABLE log (message TEXT);
            INSERT INTO log (rowid, message) VALUES (5, 'start'), (9, 'start');
            """)
        raw.close()
        let target = directory.path("copy.db")
        let report = try migrate(source, target)
        #expect(report.written == 7 && report.verified, "\(report)")
        let copy = try RawDatabase(target)
        defer { copy.close() }
        #expect(try copy.rows("SELECT name, pk FROM pragma_table_info('PlaylistTrack') ORDER BY cid")
            == [[.text("PlaylistId"), .integer(1)], [.text("TrackId"), .integer(2)]])
        #expect(try copy.rows("SELECT name, pk FROM pragma_table_info('Tag') ORDER BY cid")
            == [[.text("n"), .integer(2)], [.text("name"), .integer(1)], [.text("v"), .integer(0)]])
        #expect(try copy.rows("SELECT wr FROM pragma_table_list WHERE name IN ('Tag', 'PlaylistTrack') ORDER BY name")
            == [[.integer(0)], [.integer(1)]])
        let sql = try copy.rows("SELECT sql FROM sqlite_schema WHERE name = 'PlaylistTrack'")
        guard case .text(let create)? = sql.first?.first else {
            Issue.record("no CREATE TABLE for PlaylistTrack: \(sql)")
            return
        }
        #expect(create.contains("PRIMARY KEY (\"PlaylistId\", \"TrackId\")"), "\(create)")
        #expect(try copy.rows("SELECT PlaylistId, TrackId FROM PlaylistTrack ORDER BY 1, 2") == [
            [.integer(1), .integer(3389)], [.integer(1), .integer(3402)], [.integer(2), .integer(1)],
        ])
        #expect(throws: (any Error).self) { try copy.exec("INSERT INTO PlaylistTrack VALUES (2, 1)") }
        #expect(try copy.rows("SELECT n, name, v FROM Tag ORDER BY name")
            == [[.integer(1), .text("a"), .text("first")], [.integer(2), .text("x"), .text("two")]])
        // No key was declared, none is made: duplicate rows and the rowids stay.
        #expect(try copy.rows("SELECT pk FROM pragma_table_info('log')") == [[.integer(0)]])
        #expect(try copy.rows("SELECT rowid, message FROM log ORDER BY rowid")
            == [[.integer(5), .text("start")], [.integer(9), .text("start")]])
    }

    @Test("composite identifiers of a created table load in bulk into a new table, in identifier order")
    func createdTableBulkLoad() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.path("source.db")
        let ids: [ItemID] = [
            .int(1), .string("s"), .bytes([0]), .bytes([1, 2]),
            .composite([.int(1), .int(2)]), .composite([.int(1), .string("x")]), .composite([.string("a"), .bytes([0])]),
        ]
        do {
            let store = SQLiteDataStore(path: source, options: quietOptions())
            try store.setup()
            defer { try? store.tearDown() }
            try store.writeSync { accessor in
                for (offset, id) in ids.enumerated() {
                    try accessor.insert(Item(itemType: "Pair", id: id, attributes: ["n": .int(Int64(offset))]))
                }
            }
        }
        let target = directory.path("copy.db")
        let report = try migrate(source, target)
        #expect(report.written == ids.count && report.verified, "\(report)")
        let copy = SQLiteDataStore(path: target, options: quietOptions())
        try copy.setup()
        defer { try? copy.tearDown() }
        let items = try copy.read { try $0.items(forRequest: DataStoreRequest(itemType: "Pair")) }
        #expect(items.map(\.id) == ids)
        #expect(items.map { $0["n"] } == ids.indices.map { .int(Int64($0)) })
        #expect(try copy.read { try $0.item(ofType: "Pair", id: .composite([.string("a"), .bytes([0])])) }?["n"] == 6)
    }
}
