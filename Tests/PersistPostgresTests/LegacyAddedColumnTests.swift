import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// A column other SQL added to a table the store created is an adopted column: Persist's writes
/// keep its declared type, its default and its `NOT NULL`, as in an adopted table.
@Suite("PostgresDataStore on a created table that legacy SQL gave columns of its own")
struct LegacyAddedColumnTests {
    /// Runs `body` with a store whose table `Note` (holding Note/1) legacy SQL then altered by
    /// each of `alters`, an `ALTER TABLE` statement apiece.
    private func withAlteredNote(_ alters: String..., body: (PostgresDataStore) throws -> Void) throws {
        try withPostgresStore { store, schema in
            try seed(store, [Item(itemType: "Note", id: 1, attributes: ["v": "a"])])
            let other = try TestServer.connect()
            defer { other.close() }
            for alter in alters { try other.executeScript("ALTER TABLE \(schema).\"Note\" \(alter)") }
            try body(store)
        }
    }

    @Test("a value the added column would change is refused, nothing is written, and the block goes on")
    func changedValueRefused() throws {
        try withAlteredNote("ADD COLUMN price numeric(10,2)") { store in
            try store.writeSync { accessor in
                let error = expectError(.typeMismatch) {
                    try accessor.save(Item(itemType: "Note", id: 2, attributes: ["price": 1.234]))
                }
                #expect(error?.message.contains("\"price\"") == true, "\(String(describing: error))")
                try accessor.save(Item(itemType: "Note", id: 3, attributes: ["price": 1.25]))
            }
            expectError(.typeMismatch) {
                try store.writeSync { try $0.updateItems(forRequest: DataStoreRequest(itemType: "Note"), setting: ["price": 9.999]) }
            }
            let items = try allItems(store, "Note")
            #expect(items.map(\.id) == [1, 3])
            #expect(items.last?["price"] == .decimal(Decimal(string: "1.25") ?? 0))
            #expect(items.first?["price"] == nil)
        }
    }

    @Test("an insert that leaves an added column out gets its default")
    func insertGetsDefault() throws {
        try withAlteredNote("ADD COLUMN extra text DEFAULT 'dflt', ADD COLUMN n integer NOT NULL DEFAULT 7") { store in
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: 2, attributes: ["v": "b"])) }
            let items = try allItems(store, "Note")
            #expect(items.map(\.id) == [1, 2])
            #expect(items.last?["extra"] == "dflt")
            #expect(items.last?["n"] == 7)
        }
    }

    @Test("an insert an added NOT NULL column refuses is invalidArgument naming the item, and the block goes on")
    func notNullRefusal() throws {
        try withAlteredNote("ADD COLUMN required integer NOT NULL DEFAULT 0", "ALTER COLUMN required DROP DEFAULT") { store in
            try store.writeSync { accessor in
                let error = expectError(.invalidArgument) {
                    try accessor.insert(Item(itemType: "Note", id: 2, attributes: ["v": "b"]))
                }
                #expect(error?.items.map(\.id) == [2], "\(String(describing: error))")
                try accessor.insert(Item(itemType: "Note", id: 3, attributes: ["required": 5]))
            }
            #expect(try allItems(store, "Note").map(\.id) == [1, 3])
        }
    }
}
