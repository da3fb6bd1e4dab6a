import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

/// Triggers of adopted tables that skip Persist's writes with `RAISE(IGNORE)`: the write is
/// refused as the trigger's, whichever statement the table's form makes the store use.
@Suite("SQLite writes to tables whose triggers skip the rows they write")
struct TriggerSkipTests {
    static let schema = """
        CREATE TABLE with_default (id INTEGER PRIMARY KEY, v, w DEFAULT 'w');
        CREATE TABLE keyed_by_rowid (v, w);
        CREATE TABLE text_key (id TEXT PRIMARY KEY, v);
        INSERT INTO with_default VALUES (1, 'a', 'b');
        INSERT INTO keyed_by_rowid (rowid, v, w) VALUES (1, 'a', 'b');
        INSERT INTO text_key VALUES ('1', 'a');
        """ + ["with_default", "keyed_by_rowid", "text_key"].map { table in
            """
            CREATE TRIGGER "\(table)_keep" BEFORE UPDATE ON \(table) WHEN NEW.v = 'keep' BEGIN SELECT RAISE(IGNORE); END;
            CREATE TRIGGER "\(table)_skip" BEFORE INSERT ON \(table) WHEN NEW.v = 'skip' BEGIN SELECT RAISE(IGNORE); END;
            """
        }.joined(separator: "\n")

    @Test("a save whose update a trigger skips, and an insert a trigger skips, are refused as the trigger's, and nothing changes",
          arguments: ["with_default", "keyed_by_rowid", "text_key"])
    func skippedWrites(table: String) throws {
        try withFileStore(creatingWith: Self.schema) { store, _ in
            let id: ItemID = table == "text_key" ? "1" : 1
            let newID: ItemID = table == "text_key" ? "2" : 2
            let before = try allItems(store, table)
            let saved = try #require(throws: DataStoreError.self) {
                try store.writeSync { try $0.save(Item(itemType: table, id: id, attributes: ["v": "keep"])) }
            }
            #expect(saved.code == .typeMismatch && saved.message.contains("a trigger of the table"), "\(saved)")
            #expect(saved.items == [ItemReference(itemType: table, id: id)])
            let inserted = try #require(throws: DataStoreError.self) {
                try store.writeSync { try $0.insert(Item(itemType: table, id: newID, attributes: ["v": "skip"])) }
            }
            #expect(inserted.code == .typeMismatch && inserted.message.contains("a trigger of the table skipped the row"),
                    "\(inserted)")
            #expect(try allItems(store, table) == before)
        }
    }
}
