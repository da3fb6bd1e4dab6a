import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

@Suite("A child of an SQLite store and writes only SQLite refuses")
struct SQLiteChildRefusalTests {
    @Test("a write the child takes but the parent's database refuses (NOT NULL, a NOCASE duplicate, a type name beside a table of another case) fails the merge whole; the child keeps it")
    func refusedAtMerge() throws {
        try withFileStore(creatingWith: """
            CREATE TABLE todo (id INTEGER PRIMARY KEY, title TEXT NOT NULL, tag TEXT COLLATE NOCASE UNIQUE);
            INSERT INTO todo (id, title, tag) VALUES (1, 'a', 'x');
            """) { store, _ in
            let cases: [(Item, DataStoreError.Code)] = [
                (Item(itemType: "todo", id: 2, attributes: ["done": true]), .invalidArgument),
                (Item(itemType: "todo", id: 2, attributes: ["title": "b", "tag": "X"]), .uniqueViolation),
                (Item(itemType: "TODO", id: 2, attributes: ["title": "b"]), .invalidArgument),
            ]
            for (refused, code) in cases {
                let child = try store.makeChildDataStore()
                try child.setup()
                try child.writeSync { accessor in
                    try accessor.save(Item(itemType: "todo", id: 1, attributes: ["title": "changed", "tag": "x"]))
                    try accessor.insert(refused)
                }
                #expect(try child.read { try $0.item(ofType: refused.itemType, id: refused.id) } == refused)
                let error = expectError(code) { try store.merge(child) }
                #expect(error != nil, "merging \(refused) did not fail")
                #expect(try allItems(store, "todo") == [Item(itemType: "todo", id: 1, attributes: ["title": "a", "tag": "x"])])
                #expect(child.changeCount == 2)
            }
        }
    }
}
