import Foundation
import Persist
import PersistSQLite
import PersistTestSupport
import Testing

/// Triggers of adopted tables apply to Persist's writes: a value a trigger sets where the item
/// gave none is the table's own; a value the item gave that a trigger changes is refused, saying so.
@Suite("SQLite writes to tables whose triggers change the rows they write")
struct TriggerWriteTests {
    @Test("a trigger that sets columns the item lacks lets the save through; one that changes a value it gave is refused as the trigger's")
    func triggerChanges() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("legacy.sqlite")
        let raw = try RawDatabase(path)
        try raw.exec("""
            CREATE TABLE prod (id INTEGER PRIMARY KEY, name TEXT, price REAL, updated_at TEXT, edits INTEGER, code NUMERIC);
            CREATE TRIGGER prod_touch AFTER UPDATE ON prod BEGIN
                UPDATE prod SET updated_at = 'touched', edits = coalesce(edits, 0) + 1 WHERE id = NEW.id;
            END;
            INSERT INTO prod (id, name, price) VALUES (1, 'pen', 1.5);
            """)
        raw.close()
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        try store.writeSync { try $0.save(Item(itemType: "prod", id: 1, attributes: ["name": "pen 2", "price": 2.5])) }
        let saved = try #require(try store.read { try $0.item(ofType: "prod", id: 1) })
        #expect(saved.attributes == ["name": "pen 2", "price": 2.5, "updated_at": "touched", "edits": 1])
        // The item as read, changed and saved: the trigger raises `edits` past the value it gives.
        let raised = try #require(throws: DataStoreError.self) {
            try store.writeSync { try $0.save(saved.setting(["name": "pen 3"])) }
        }
        #expect(raised.code == .typeMismatch && raised.message.contains("a trigger of the table would turn the int 1 into the int 2 in the column \"edits\""),
                "\(raised.message)")
        // Without the values the trigger sets, the same save goes through.
        try store.writeSync { try $0.save(saved.setting(["name": "pen 3", "edits": .null, "updated_at": .null])) }
        // save replaces every attribute: `edits` went to NULL, and the trigger counted one edit again.
        #expect(try store.read { try $0.item(ofType: "prod", id: 1)?["edits"] } == 1)
        // A value the column's affinity would convert is refused as such.
        let error = try #require(throws: DataStoreError.self) {
            try store.writeSync { try $0.save(Item(itemType: "prod", id: 1, attributes: ["code": "0012"])) }
        }
        #expect(error.code == .typeMismatch && error.message.contains("NUMERIC affinity"), "\(error.message)")
        #expect(try store.read { try $0.item(ofType: "prod", id: 1)?["name"] } == "pen 3")
    }

    @Test("a table whose columns no affinity would change is still read back for its triggers, by saves and set-based updates")
    func triggerWithoutAffinity() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("legacy.sqlite")
        let raw = try RawDatabase(path)
        try raw.exec("""
            CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT);
            CREATE TRIGGER note_shout AFTER UPDATE ON note BEGIN UPDATE note SET body = upper(body) WHERE id = NEW.id; END;
            INSERT INTO note VALUES (1, 'a');
            """)
        raw.close()
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        let saved = try #require(throws: DataStoreError.self) {
            try store.writeSync { try $0.save(Item(itemType: "note", id: 1, attributes: ["body": "quiet"])) }
        }
        #expect(saved.code == .typeMismatch && saved.message.contains("a trigger of the table"), "\(saved.message)")
        let updated = try #require(throws: DataStoreError.self) {
            try store.writeSync { try $0.updateItems(forRequest: DataStoreRequest(itemType: "note"), setting: ["body": "quiet"]) }
        }
        #expect(updated.code == .typeMismatch, "\(updated)")
        #expect(try store.read { try $0.item(ofType: "note", id: 1)?["body"] } == "a")
        // What the trigger keeps as it is goes through.
        try store.writeSync { try $0.save(Item(itemType: "note", id: 1, attributes: ["body": "LOUD"])) }
        #expect(try store.read { try $0.item(ofType: "note", id: 1)?["body"] } == "LOUD")
    }
}
