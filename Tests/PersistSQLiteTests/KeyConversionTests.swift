import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

/// Identifiers a legacy key's affinity or collation would store as another row's key: the item
/// does not exist, so the insert is refused as the key's doing, not as an item already there.
@Suite("SQLite inserts whose identifier the key would turn into another row's")
struct KeyConversionTests {
    @Test("an insert the key's affinity or collation makes collide with another row is typeMismatch, not alreadyExists",
          arguments: [("nocase", ItemID.string("a")), ("numbered", ItemID.string("5"))])
    func collidingKey(table: String, id: ItemID) throws {
        try withFileStore(creatingWith: """
            CREATE TABLE nocase (id TEXT PRIMARY KEY COLLATE NOCASE, v) WITHOUT ROWID;
            INSERT INTO nocase VALUES ('A', 1);
            CREATE TABLE numbered (id INTEGER PRIMARY KEY, v);
            INSERT INTO numbered VALUES (5, 1);
            """) { store, _ in
            let before = try allItems(store, table)
            #expect(try store.read { try $0.item(ofType: table, id: id) } == nil)
            let error = try #require(throws: DataStoreError.self) {
                try store.writeSync { try $0.insert(Item(itemType: table, id: id, attributes: ["v": 2])) }
            }
            #expect(error.code == .typeMismatch && error.message.contains("another row's key"), "\(error)")
            #expect(error.items == [ItemReference(itemType: table, id: id)])
            #expect(try allItems(store, table) == before)
        }
    }
}
