import Foundation
import Persist
import PersistSQLite
import PersistTestSupport
import Testing

/// The "Other statements" block of `MigrationGuides/FromSQLite.md`, run on a legacy table made
/// with plain SQL: each call does what the SQL statement its comment names did.
@Suite("The SQLite guide's statements")
struct SQLiteStatementTests {
    /// Runs `body` on a legacy database with the guide's `todo` table and one open and one
    /// finished row, made with plain SQL and opened as a store.
    static func withLegacyStore(_ body: (SQLiteDataStore) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("todo.sqlite")
        let legacy = try RawDatabase(path)
        try legacy.exec("""
            CREATE TABLE todo (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0,
                               due STRING, tag TEXT UNIQUE);
            INSERT INTO todo (title, tag) VALUES ('Buy milk', 'shop');
            INSERT INTO todo (title, done) VALUES ('Call the bank', 1);
            """)
        legacy.close()
        let store = SQLiteDataStore(path: path)
        try store.setup()
        defer { try? store.tearDown() }
        try body(store)
    }

    @Test("each call does what its statement did")
    func statements() throws {
        try Self.withLegacyStore { store throws in

            // INSERT, then sqlite3_last_insert_rowid(): the block returns the new row's identifier.
            let id: ItemID = try store.writeSync { accessor in
                let todo = try accessor.createItem(ofType: "todo", idGeneration: .nextInteger)
                todo["title"] = "Water the plants"
                return todo.id
            }
            // SELECT * FROM todo WHERE id = ?
            let row: Item? = try store.read { accessor in try accessor.item(ofType: "todo", id: id) }
            // UPDATE todo SET done = 1 WHERE id = ?
            try store.writeSync { accessor in
                guard let row = try accessor.item(ofType: "todo", id: id) else { return }
                try accessor.mutableVersion(ofItem: row)?["done"] = 1
            }
            #expect(id == 3 && row?["title"] == "Water the plants" && row?["done"] == 0, "the DEFAULT applies")
            #expect(try store.read { accessor in try accessor.item(ofType: "todo", id: id)?["done"] } == 1)

            // DELETE FROM todo WHERE id = ?: whether the row was there.
            let deleted: Bool = try store.writeSync { accessor in try accessor.deleteItem(ofType: "todo", id: id) }
            // UPDATE … SET … WHERE and DELETE … WHERE on other columns: one statement each, and
            // the count sqlite3_changes() gave.
            var open = DataStoreRequest(itemType: "todo")
            open.setFilter(whereAttribute: "done", equalsValue: 0)
            let closed: Int = try store.writeSync { accessor in try accessor.updateItems(forRequest: open, setting: ["done": 1]) }
            var finished = DataStoreRequest(itemType: "todo")
            finished.setFilter(whereAttribute: "done", equalsValue: 1)
            let purged: Int = try store.writeSync { accessor in try accessor.deleteItems(forRequest: finished) }
            // SELECT COUNT(*) FROM todo WHERE done = 0
            let left: Int = try store.read { accessor in try accessor.countItems(forRequest: open) }
            #expect(deleted && closed == 1 && purged == 2 && left == 0)

            // INSERT OR REPLACE INTO todo (id, title, done) VALUES (7, 'Pay rent', 0)
            try store.writeSync { accessor in
                try accessor.save(Item(itemType: "todo", id: 7, attributes: ["title": "Pay rent", "done": 0]))
            }
            #expect(try store.read { accessor in try accessor.item(ofType: "todo", id: 7)?["title"] } == "Pay rent")

            // BEGIN; …; COMMIT, or ROLLBACK: one write block. A throw, or returning .rollback, rolls it back.
            let status = try store.writeSync { accessor -> TransactionStatus in
                let first = try accessor.createItem(ofType: "todo", idGeneration: .nextInteger)
                first["title"] = "Pack"
                let second = try accessor.createItem(ofType: "todo", idGeneration: .nextInteger)
                second["title"] = "Travel"
                return .rollback
            }
            #expect(status == .rollback)
            #expect(try store.read { accessor in try accessor.countItems(forRequest: DataStoreRequest(itemType: "todo")) } == 1)
        }
    }

    @Test("the key column is no attribute: a filter or sort naming it sees no value, and maximum(of:) of it is nil")
    func keyColumnIsNoAttribute() throws {
        try Self.withLegacyStore { store throws in
            var byKey = DataStoreRequest(itemType: "todo")
            byKey.setFilter(whereAttribute: "id", equalsValue: 1)
            #expect(try store.read { accessor in try accessor.countItems(forRequest: byKey) } == 0)
            #expect(try store.writeSync { accessor in try accessor.deleteItems(forRequest: byKey) } == 0)
            let all = DataStoreRequest(itemType: "todo")
            #expect(try store.read { accessor in try accessor.maximum(of: "id", forRequest: all) } == nil)
            #expect(try store.read { accessor in try accessor.items(forRequest: all).last?.id } == 2)
            var sorted = all
            sorted.setSort(byKey: "id", ascending: false)
            #expect(try store.read { accessor in try accessor.items(forRequest: sorted).map(\.id) } == [1, 2], "ties, in identifier order")
        }
    }

    @Test("save is no INSERT OR REPLACE: unset columns become NULL, and another UNIQUE clash throws")
    func saveIsNoReplace() throws {
        try Self.withLegacyStore { store throws in
            // SQLite's REPLACE would take done's DEFAULT; the saved item has no done, which NOT NULL refuses.
            #expect {
                try store.writeSync { accessor in try accessor.save(Item(itemType: "todo", id: 1, attributes: ["title": "Buy oat milk"])) }
            } throws: { ($0 as? DataStoreError)?.code == .invalidArgument }
            // SQLite's REPLACE would delete row 1, which has the tag; save throws and deletes nothing.
            #expect {
                try store.writeSync { accessor in
                    try accessor.save(Item(itemType: "todo", id: 2, attributes: ["title": "Call the bank", "done": 1, "tag": "shop"]))
                }
            } throws: { ($0 as? DataStoreError)?.code == .uniqueViolation }
            #expect(try store.read { accessor in try accessor.countItems(forRequest: DataStoreRequest(itemType: "todo")) } == 2)
        }
    }
}
