import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

/// Adopted tables whose PRIMARY KEY has several columns: their items have composite identifiers.
@Suite("SQLite tables keyed by several columns are adopted in place")
struct CompositeKeyTests {
    /// Chinook's playlist tracks, with a note per row, and a WITHOUT ROWID table keyed (TEXT, INTEGER).
    static let sql = """
        CREATE TABLE PlaylistTrack (PlaylistId INTEGER NOT NULL, TrackId INTEGER NOT NULL, Note TEXT,
            PRIMARY KEY (PlaylistId, TrackId));
        INSERT INTO PlaylistTrack VALUES (1, 3402, 'b'), (1, 3389, 'a'), (2, 1, 'a'), (1, 10, 'b');
        CREATE TABLE Tag (n INTEGER, name TEXT, v, PRIMARY KEY (name, n)) WITHOUT ROWID;
        INSERT INTO Tag VALUES (2, 'x', 'two'), (1, 'x', 'one'), (1, 'a', 'first');
        """

    static func track(_ playlist: Int64, _ track: Int64, _ note: String?) -> Item {
        Item(itemType: "PlaylistTrack", id: .composite([.int(playlist), .int(track)]),
             attributes: note.map { ["Note": .string($0)] } ?? [:])
    }

    static func ids(_ store: SQLiteDataStore, _ request: DataStoreRequest) throws -> [ItemID] {
        try store.read { try $0.items(forRequest: request) }.map(\.id)
    }

    @Test("rows read as items whose identifiers are the key columns' values in key order, not attributes")
    func reads() throws {
        try withFileStore(creatingWith: Self.sql) { store, _ in
            let skipped = try store.skippedTables()
            #expect(skipped.isEmpty, "\(skipped)")
            let item = try store.read { try $0.item(ofType: "PlaylistTrack", id: .composite([.int(1), .int(3402)])) }
            #expect(item == Self.track(1, 3402, "b"))
            // Key order, not table order: (name, n).
            let tag = try store.read { try $0.item(ofType: "Tag", id: .composite([.string("x"), .int(2)])) }
            #expect(tag == Item(itemType: "Tag", id: .composite([.string("x"), .int(2)]), attributes: ["v": "two"]))
            #expect(try Self.ids(store, DataStoreRequest(itemType: "PlaylistTrack")) == [
                .composite([.int(1), .int(10)]), .composite([.int(1), .int(3389)]),
                .composite([.int(1), .int(3402)]), .composite([.int(2), .int(1)]),
            ])
            #expect(try Self.ids(store, DataStoreRequest(itemType: "Tag")) == [
                .composite([.string("a"), .int(1)]), .composite([.string("x"), .int(1)]), .composite([.string("x"), .int(2)]),
            ])
            #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "PlaylistTrack")) } == 4)
        }
    }

    @Test("sort ties are broken component by component, and filters, windows and counts compile")
    func requests() throws {
        try withFileStore(creatingWith: Self.sql) { store, _ in
            var request = DataStoreRequest(itemType: "PlaylistTrack")
            request.sortDescriptors = [.descending("Note")]
            #expect(try Self.ids(store, request) == [
                .composite([.int(1), .int(10)]), .composite([.int(1), .int(3402)]),
                .composite([.int(1), .int(3389)]), .composite([.int(2), .int(1)]),
            ])
            request.offset = 1
            request.limit = 2
            #expect(try Self.ids(store, request) == [.composite([.int(1), .int(3402)]), .composite([.int(1), .int(3389)])])
            #expect(try store.read { try $0.countItems(forRequest: request) } == 2)
            var filtered = DataStoreRequest(itemType: "PlaylistTrack")
            filtered.filter = .attribute("Note") == "a"
            #expect(try Self.ids(store, filtered) == [.composite([.int(1), .int(3389)]), .composite([.int(2), .int(1)])])
            var unordered = DataStoreRequest(itemType: "Tag")
            unordered.ordering = .unspecified
            var streamed: [ItemID] = []
            try store.read { accessor in try accessor.forEachItem(forRequest: unordered) { streamed.append($0.id) } }
            #expect(Set(streamed).count == 3)
        }
    }

    @Test("insert, save, update and delete reach the row of the key's values")
    func writes() throws {
        try withFileStore(creatingWith: Self.sql) { store, path in
            try store.writeSync { accessor in
                try accessor.insert(Self.track(3, 7, "new"))
                try accessor.save(Self.track(1, 3402, "saved"))
                try accessor.save(Self.track(4, 4, nil))
                #expect(try accessor.deleteItem(ofType: "PlaylistTrack", id: .composite([.int(2), .int(1)])))
                #expect(try !accessor.deleteItem(ofType: "PlaylistTrack", id: .composite([.int(2), .int(1)])))
                let tag = Item(itemType: "Tag", id: .composite([.string("b"), .int(0)]), attributes: ["v": 5])
                try accessor.insert(tag)
            }
            let duplicate = try #require(throws: DataStoreError.self) {
                try store.writeSync { try $0.insert(Self.track(3, 7, "again")) }
            }
            #expect(duplicate.code == .alreadyExists, "\(duplicate)")
            let raw = try RawDatabase(path)
            defer { raw.close() }
            #expect(try raw.rows("SELECT PlaylistId, TrackId, Note FROM PlaylistTrack ORDER BY 1, 2") == [
                [.integer(1), .integer(10), .text("b")], [.integer(1), .integer(3389), .text("a")],
                [.integer(1), .integer(3402), .text("saved")], [.integer(3), .integer(7), .text("new")],
                [.integer(4), .integer(4), .null],
            ])
            #expect(try raw.rows("SELECT name, n, v FROM Tag WHERE name = 'b'") == [[.text("b"), .integer(0), .integer(5)]])
        }
    }

    @Test("set writes select rows by their whole key, windows included")
    func setWrites() throws {
        try withFileStore(creatingWith: Self.sql) { store, _ in
            var window = DataStoreRequest(itemType: "PlaylistTrack")
            window.sortDescriptors = [.ascending("Note")]
            window.limit = 2
            let update = window
            // The two notes "a": (1, 3389) and (2, 1).
            let updated = try store.writeSync { try $0.updateItems(forRequest: update, setting: ["Note": "z"]) }
            #expect(updated == 2)
            var zs = DataStoreRequest(itemType: "PlaylistTrack")
            zs.filter = .attribute("Note") == "z"
            let changed = try Self.ids(store, zs)
            #expect(changed == [.composite([.int(1), .int(3389)]), .composite([.int(2), .int(1)])])
            window.offset = 1
            window.limit = 1
            let delete = window
            // Sorted by note: "b" (1, 10), "b" (1, 3402), … — the second is deleted.
            let deleted = try store.writeSync { try $0.deleteItems(forRequest: delete) }
            #expect(deleted == 1)
            let gone = try store.read { try $0.item(ofType: "PlaylistTrack", id: .composite([.int(1), .int(3402)])) }
            #expect(gone == nil)
            #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "PlaylistTrack")) } == 3)
        }
    }

    @Test("an identifier of another shape is refused naming the table and its key columns, and reads find nothing")
    func wrongShape() throws {
        try withFileStore(creatingWith: Self.sql) { store, path in
            let wrong: [ItemID] = [.int(1), .string("1"), .composite([.int(1), .int(2), .int(3)])]
            for id in wrong {
                let item = Item(itemType: "PlaylistTrack", id: id, attributes: ["Note": "x"])
                for write in [{ (accessor: DataStoreReadWriteAccessor) in try accessor.insert(item) },
                              { (accessor: DataStoreReadWriteAccessor) in try accessor.save(item) }] {
                    let error = try #require(throws: DataStoreError.self) { try store.writeSync(write) }
                    #expect(error.code == .typeMismatch, "\(error)")
                    #expect(error.message.contains("\"PlaylistTrack\""), "\(error)")
                    #expect(error.message.contains("(\"PlaylistId\", \"TrackId\")"), "\(error)")
                    #expect(error.items == [item.reference], "\(error)")
                }
                #expect(try store.read { try $0.item(ofType: "PlaylistTrack", id: id) } == nil)
                #expect(try store.writeSync { try $0.deleteItem(ofType: "PlaylistTrack", id: id) } == false)
            }
            // A single-column key refuses a composite identifier the same way.
            let single = Item(itemType: "One", id: .composite([.int(1), .int(2)]), attributes: [:])
            let raw = try RawDatabase(path)
            try raw.exec("CREATE TABLE One (id TEXT PRIMARY KEY, v)")
            raw.close()
            let error = try #require(throws: DataStoreError.self) { try store.writeSync { try $0.insert(single) } }
            #expect(error.code == .typeMismatch, "\(error)")
            #expect(error.message.contains("\"One\"") && error.message.contains("\"id\""), "\(error)")
            // A component the INTEGER key column would store as another value is refused, nothing stored.
            let converted = Self.track(0, 0, nil)
            let text = Item(itemType: "PlaylistTrack", id: .composite([.string("12"), .int(1)]), attributes: converted.attributes)
            let changed = try #require(throws: DataStoreError.self) { try store.writeSync { try $0.insert(text) } }
            #expect(changed.code == .typeMismatch, "\(changed)")
            #expect(try store.read { try $0.item(ofType: "PlaylistTrack", id: .composite([.int(12), .int(1)])) } == nil)
            // A STRICT table's key column refuses a component of another type outright, naming itself.
            let strict = try RawDatabase(path)
            try strict.exec("CREATE TABLE sk (a INTEGER, b TEXT, v ANY, PRIMARY KEY (a, b)) STRICT")
            strict.close()
            let typed = Item(itemType: "sk", id: .composite([.string("x"), .string("y")]), attributes: ["v": 1])
            let refused = try #require(throws: DataStoreError.self) { try store.writeSync { try $0.insert(typed) } }
            #expect(refused.code == .typeMismatch, "\(refused)")
            #expect("\(refused)".contains("sk.a"), "\(refused)")
            #expect(refused.items == [typed.reference], "\(refused)")
        }
    }

    @Test("a child store's inserts, saves and deletes merge into the table")
    func childMerge() throws {
        try withFileStore(creatingWith: Self.sql) { store, _ in
            let child = try store.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            try child.writeSync { accessor in
                try accessor.insert(Self.track(5, 5, "child"))
                try accessor.save(Self.track(1, 10, "changed"))
                #expect(try accessor.deleteItem(ofType: "PlaylistTrack", id: .composite([.int(2), .int(1)])))
            }
            #expect(try child.read { try $0.item(ofType: "PlaylistTrack", id: .composite([.int(5), .int(5)])) } != nil)
            try store.merge(child)
            #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "PlaylistTrack")) } == [
                Self.track(1, 10, "changed"), Self.track(1, 3389, "a"), Self.track(1, 3402, "b"), Self.track(5, 5, "child"),
            ])
        }
    }

    @Test("a live query of the table sees a write")
    func liveQuery() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.sqlite")
        let raw = try RawDatabase(path)
        try raw.exec(Self.sql)
        raw.close()
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Tag")))
        try await recorder.waitFor { $0.last?.count == 3 }
        try store.writeSync { try $0.insert(Item(itemType: "Tag", id: .composite([.string("a"), .int(0)]), attributes: [:])) }
        try await recorder.waitFor { $0.last?.first?.id == .composite([.string("a"), .int(0)]) }
        await recorder.cancel()
    }
}
