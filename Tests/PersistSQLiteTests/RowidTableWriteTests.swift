import Foundation
import Persist
import PersistSQLite
import PersistTestSupport
import Testing

/// Writes to adopted tables keyed by their rowid whose PRIMARY KEY names other columns (one of
/// REAL affinity, which no identifier component holds).
@Suite("SQLite tables keyed by their rowid keep their PRIMARY KEY as a uniqueness")
struct RowidTableWriteTests {
    @Test("a write that repeats another row's PRIMARY KEY of several columns is a uniqueViolation naming both items")
    func compositePrimaryKey() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("legacy.sqlite")
        let raw = try RawDatabase(path)
        try raw.exec("CREATE TABLE pair (a INTEGER, b REAL, v TEXT, PRIMARY KEY (a, b)); INSERT INTO pair VALUES (1, 'x', 'p1');")
        raw.close()
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        let first = try #require(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "pair")) }.first)
        let copy = Item(itemType: "pair", id: 99, attributes: ["a": 1, "b": "x"])
        for write in [{ (accessor: DataStoreReadWriteAccessor) in try accessor.insert(copy) },
                      { (accessor: DataStoreReadWriteAccessor) in try accessor.save(copy) }] {
            let error = try #require(throws: DataStoreError.self) { try store.writeSync(write) }
            #expect(error.code == .uniqueViolation, "\(error)")
            #expect(error.items == [copy.reference, first.reference], "\(error)")
        }
        #expect(try store.read { try $0.item(ofType: "pair", id: 99) } == nil)
        // A set-based update that would repeat the key is refused the same way.
        try store.writeSync { try $0.insert(Item(itemType: "pair", id: 2, attributes: ["a": 2, "b": "x"])) }
        var second = DataStoreRequest(itemType: "pair")
        second.filter = .attribute("a") == 2
        let update = try #require(throws: DataStoreError.self) {
            try store.writeSync { try $0.updateItems(forRequest: second, setting: ["a": 1]) }
        }
        #expect(update.code == .uniqueViolation, "\(update)")
    }
}
