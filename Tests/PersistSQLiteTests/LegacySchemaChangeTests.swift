import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

/// Legacy code changing a table's columns on its own connection while a store has the file open.
@Suite("SQLite schema changes by another connection are seen by the store's next block")
struct LegacySchemaChangeTests {
    @Test("after another connection drops or renames a column, writing that attribute adds the column again",
          arguments: ["ALTER TABLE t DROP COLUMN b", "ALTER TABLE t RENAME COLUMN b TO bb"])
    func droppedOrRenamedColumn(change: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("legacy.sqlite")
        let raw = try RawDatabase(path)
        try raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b TEXT); INSERT INTO t VALUES (1, 'a1', 'b1');")
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        // The store writes once, so its writer connection has the old columns in mind.
        try store.writeSync { try $0.save(Item(itemType: "t", id: 1, attributes: ["a": "a1", "b": "b1"])) }
        try raw.exec(change)
        raw.close()
        #expect(try store.read { try $0.item(ofType: "t", id: 1)?["b"] } == nil)
        try store.writeSync { try $0.insert(Item(itemType: "t", id: 2, attributes: ["a": "a2", "b": "new"])) }
        #expect(try store.read { try $0.item(ofType: "t", id: 2) }?.attributes == ["a": "a2", "b": "new"])
    }

    @Test("a table the store created keeps the kinds of its values after another connection renames it, and a write keeps them")
    func renamedCreatedTable() throws {
        try withFileStore { store, path in
            let event = Item(itemType: "Event", id: "e1", attributes: [
                "at": .date(Date(timeIntervalSinceReferenceDate: 5)), "done": true, "tags": ["a"], "count": 1,
            ])
            try store.writeSync { try $0.insert(event) }
            let raw = try RawDatabase(path)
            try raw.exec("ALTER TABLE Event RENAME TO Archive")
            raw.close()
            let archived = Item(itemType: "Archive", id: "e1", attributes: event.attributes)
            #expect(try allItems(store, "Archive") == [archived])
            let later = Item(itemType: "Archive", id: "e2", attributes: ["at": .date(Date(timeIntervalSinceReferenceDate: 6)), "done": false])
            try store.writeSync { try $0.insert(later) }
            #expect(try allItems(store, "Archive") == [archived, later])
        }
    }

    @Test("after another connection renames a table the store created, a write of its old type makes a new table; both keep their kinds, also after reopening")
    func oldTypeAfterRename() throws {
        try withFileStore { store, path in
            let event = Item(itemType: "Event", id: "e1", attributes: [
                "at": .date(Date(timeIntervalSinceReferenceDate: 5)), "done": true, "count": 1,
            ])
            try store.writeSync { try $0.insert(event) }
            let raw = try RawDatabase(path)
            try raw.exec("ALTER TABLE Event RENAME TO Event_old")
            raw.close()
            // The archive gains a column of its own since the rename.
            let note = Item(itemType: "Event_old", id: "e0", attributes: ["at": .date(Date(timeIntervalSinceReferenceDate: 4)),
                                                                          "note": ["archived"]])
            try store.writeSync { try $0.insert(note) }
            let fresh = Item(itemType: "Event", id: "e2", attributes: ["at": .date(Date(timeIntervalSinceReferenceDate: 9)), "done": false])
            try store.writeSync { try $0.insert(fresh) }
            let archived = Item(itemType: "Event_old", id: "e1", attributes: event.attributes)
            #expect(try allItems(store, "Event") == [fresh])
            #expect(try allItems(store, "Event_old") == [note, archived])
            try store.tearDown()
            let reopened = SQLiteDataStore(path: path, options: quietOptions())
            try reopened.setup()
            defer { try? reopened.tearDown() }
            #expect(try allItems(reopened, "Event") == [fresh])
            #expect(try allItems(reopened, "Event_old") == [note, archived])
            let check = try RawDatabase(path)
            defer { check.close() }
            #expect(try check.rows("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'persist_key:%' "
                                   + "ORDER BY name") == [[.text("persist_key:Event"), .text("Event")],
                                                          [.text("persist_key:Event_old"), .text("Event_old")]])
        }
    }
}
