import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

@Suite("SQLite runs set-based writes as one statement")
struct SetWriteStatementTests {
    static func seedTodos(_ store: SQLiteDataStore) throws {
        try store.writeSync { accessor in
            for number in 1...20 {
                try accessor.insert(Item(itemType: "Todo", id: .int(Int64(number)),
                                         attributes: ["rank": .int(Int64(number % 7)), "done": .bool(number % 2 == 0)]))
            }
        }
    }

    @Test("deleteItems and updateItems are one DELETE and one UPDATE, with and without a window")
    func oneStatement() throws {
        try withFileStore { store, _ in
            try Self.seedTodos(store)
            var windowed = DataStoreRequest(itemType: "Todo")
            windowed.filter = .attribute("done") == true
            windowed.setSort(byKey: "rank", ascending: false)
            windowed.limit = 3
            let (deleted, deleting) = try StatementTrace.record(on: store) {
                try store.writeSync { accessor in try accessor.deleteItems(forRequest: windowed) }
            }
            #expect(deleted == 3)
            #expect(deleting.filter { $0.hasPrefix("DELETE") }.count == 1)
            #expect(!deleting.contains { $0.hasPrefix("SELECT") && $0.contains("\"Todo\"") })
            var open = DataStoreRequest(itemType: "Todo")
            open.filter = .attribute("done") == false
            let (updated, updating) = try StatementTrace.record(on: store) {
                try store.writeSync { accessor in try accessor.updateItems(forRequest: open, setting: ["done": true]) }
            }
            #expect(updated == 10)
            #expect(updating.filter { $0.hasPrefix("UPDATE") }.count == 1)
            #expect(try store.read { accessor in try accessor.countItems(forRequest: open) } == 0)
        }
    }

    @Test("updateItems on a legacy column whose affinity would change the value changes nothing")
    func legacyAffinity() throws {
        try withFileStore(creatingWith: "CREATE TABLE todo (id INTEGER PRIMARY KEY, title TEXT, n INTEGER);"
                            + "INSERT INTO todo (title, n) VALUES ('a', 1), ('b', 2);") { store, path in
            let error = expectError(.typeMismatch) {
                try store.writeSync { accessor in
                    try accessor.updateItems(forRequest: DataStoreRequest(itemType: "todo"), setting: ["n": "12"])
                }
            }
            #expect(error?.path == path)
            #expect(try allItems(store, "todo").map { $0["n"] } == [1, 2])
            // Values the column keeps as given are written in one statement as usual.
            try store.writeSync { accessor in
                try accessor.updateItems(forRequest: DataStoreRequest(itemType: "todo"), setting: ["n": 7, "title": "x"])
            }
            #expect(try allItems(store, "todo").map { $0["n"] } == [7, 7])
        }
    }

    @Test("a NOT NULL column refuses a null set by updateItems, and nothing changes")
    func notNull() throws {
        try withFileStore(creatingWith: "CREATE TABLE todo (id INTEGER PRIMARY KEY, title TEXT NOT NULL);"
                            + "INSERT INTO todo (title) VALUES ('a'), ('b');") { store, _ throws in
            expectError(.invalidArgument) {
                try store.writeSync { accessor in
                    try accessor.updateItems(forRequest: DataStoreRequest(itemType: "todo"), setting: ["title": .null])
                }
            }
            expectError(.invalidArgument) {
                try store.writeSync { accessor in
                    try accessor.updateItems(forRequest: DataStoreRequest(itemType: "todo"), setting: ["id": 5])
                }
            }
            #expect(try allItems(store, "todo").map { $0["title"] } == ["a", "b"])
        }
    }

    @Test("updateItems on a legacy REAL column keeps what save keeps: a whole double is stored, an integer refused")
    func legacyRealColumn() throws {
        try withFileStore(creatingWith: "CREATE TABLE dish (id INTEGER PRIMARY KEY, price REAL);"
                            + "INSERT INTO dish (id, price) VALUES (1, 1.5), (2, 2.5);") { store, _ in
            // SQLite's RETURNING reports a whole REAL as an INTEGER: the check reads the row back.
            var second = DataStoreRequest(itemType: "dish")
            second.filter = .attribute("price") == 2.5
            let count = try store.writeSync { accessor in
                try accessor.updateItems(forRequest: second, setting: ["price": .double(3.0)])
            }
            #expect(count == 1)
            #expect(try allItems(store, "dish").map { $0["price"] } == [.double(1.5), .double(3.0)])
            // An integer would come back a double, as save refuses it, so updateItems refuses it too.
            expectError(.typeMismatch) {
                try store.writeSync { accessor in
                    try accessor.save(Item(itemType: "dish", id: 1, attributes: ["price": .int(3)]))
                }
            }
            let error = expectError(.typeMismatch) {
                try store.writeSync { accessor in
                    try accessor.updateItems(forRequest: DataStoreRequest(itemType: "dish"), setting: ["price": .int(3)])
                }
            }
            #expect(error?.message.contains("but the double 3.0") == true)
            #expect(try allItems(store, "dish").map { $0["price"] } == [.double(1.5), .double(3.0)])
        }
    }

    @Test("an update a legacy column cannot keep is refused without naming a made-up item")
    func refusedUpdateNamesNoItem() throws {
        try withFileStore(creatingWith: """
            CREATE TABLE customers (id INTEGER PRIMARY KEY, score INTEGER);
            INSERT INTO customers VALUES (1, 5), (2, 7);
            """) { store, _ in
            let error = try #require(throws: DataStoreError.self) {
                try store.writeSync { accessor in
                    try accessor.updateItems(forRequest: DataStoreRequest(itemType: "customers"), setting: ["score": true])
                }
            }
            #expect(error.code == .typeMismatch, "\(error)")
            #expect(error.items.isEmpty, "\(error.items)")
            #expect(error.message.contains("each item of type \"customers\" it selects") && !error.message.contains("(each"),
                    "\(error.message)")
            #expect(try store.read { try $0.item(ofType: "customers", id: 1)?["score"] } == 5)
        }
    }
}
