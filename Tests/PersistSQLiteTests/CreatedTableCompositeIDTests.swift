import Foundation
import Persist
import PersistSQLite
import PersistTestSupport
import Testing

/// Composite identifiers in the tables the store creates (see the "SQLite storage format" article).
@Suite("Tables the store creates hold composite identifiers in ItemID's order")
struct CreatedTableCompositeIDTests {
    static let ids: [ItemID] = [
        .int(-5), .int(3), .string(""), .string("b"), .bytes([]), .bytes([0]), .bytes([0xFF, 0xFF]),
        .composite([.int(-1), .int(2)]), .composite([.int(1), .string("a")]), .composite([.int(1), .string("a"), .int(0)]),
        .composite([.int(1), .string("a\u{0}")]), .composite([.int(1), .string("ab")]), .composite([.int(1), .bytes([0])]),
        .composite([.string("a"), .int(1)]), .composite([.bytes([]), .int(1)]),
    ]

    @Test("every kind of identifier sorts in ItemID's order, before and after the keys are tagged, and after reopening")
    func order() throws {
        #expect(Self.ids == Self.ids.sorted())
        try withFileStore { store, path in
            // Bytes first: the table exists untagged when the first composite identifier arrives.
            let plain = Self.ids.filter { !$0.isComposite }
            try store.writeSync { accessor in
                for id in plain.reversed() { try accessor.insert(Item(itemType: "Pair", id: id, attributes: ["v": 1])) }
            }
            try store.writeSync { accessor in
                for id in Self.ids.reversed() where id.isComposite {
                    try accessor.insert(Item(itemType: "Pair", id: id, attributes: ["v": 2]))
                }
            }
            let all = try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Pair")) }
            #expect(all.map(\.id) == Self.ids)
            for id in Self.ids {
                #expect(try store.read { try $0.item(ofType: "Pair", id: id) }?.id == id, "\(id)")
            }
            // Windows page in identifier order.
            var page = DataStoreRequest(itemType: "Pair")
            page.offset = 5
            page.limit = 4
            #expect(try store.read { try $0.items(forRequest: page) }.map(\.id) == Array(Self.ids[5..<9]))
            let raw = try RawDatabase(path)
            defer { raw.close() }
            #expect(try raw.rows("SELECT persist_id FROM Pair WHERE typeof(persist_id) = 'blob' ORDER BY persist_id LIMIT 1")
                == [[.blob([0x00])]])
            #expect(try raw.rows("SELECT kind FROM persist_columns WHERE column_name = 'persist_id'") == [[.text("tagged-keys")]])
        }
    }

    @Test("the tags survive reopening, and updates and deletes find composite identifiers")
    func reopen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.sqlite")
        let id = ItemID.composite([.int(7), .bytes([0, 1])])
        do {
            let store = SQLiteDataStore(path: path, options: quietOptions())
            try store.setup()
            defer { try? store.tearDown() }
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "Line", id: .bytes([9]), attributes: ["n": 1]))
                try accessor.insert(Item(itemType: "Line", id: id, attributes: ["n": 2]))
            }
        }
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        #expect(try store.read { try $0.item(ofType: "Line", id: .bytes([9])) }?["n"] == 1)
        #expect(try store.read { try $0.item(ofType: "Line", id: id) }?["n"] == 2)
        try store.writeSync { accessor in
            try accessor.save(Item(itemType: "Line", id: id, attributes: ["n": 3]))
            #expect(try accessor.deleteItem(ofType: "Line", id: .bytes([9])))
        }
        #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Line")) }
            == [Item(itemType: "Line", id: id, attributes: ["n": 3])])
    }

    @Test("a table dropped with SQL and created again by the store starts with untagged keys")
    func droppedAndCreatedAgain() throws {
        try withFileStore { store, path in
            try store.writeSync { try $0.insert(Item(itemType: "Pair", id: .composite([.int(1), .int(2)]), attributes: ["v": 1])) }
            let raw = try RawDatabase(path)
            try raw.exec("DROP TABLE Pair")
            raw.close()
            try store.writeSync { try $0.insert(Item(itemType: "Pair", id: .bytes([5]), attributes: ["v": 2])) }
            #expect(try store.read { try $0.item(ofType: "Pair", id: .bytes([5])) }?["v"] == 2)
            let check = try RawDatabase(path)
            defer { check.close() }
            #expect(try check.rows("SELECT persist_id FROM Pair") == [[.blob([5])]])
        }
    }
}
