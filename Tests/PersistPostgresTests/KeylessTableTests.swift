import Persist
import PersistConformance
import PersistPostgres
import Testing

@Suite("Adopted PostgreSQL tables without a primary key")
struct KeylessTableTests {
    static let log = """
        CREATE TABLE log (at int, message text);
        INSERT INTO log VALUES (1, 'start'), (2, 'tick'), (2, 'tick'), (3, NULL);
        """

    @Test("every row is read, duplicates included, each under an identifier of its own")
    func readsEveryRow() throws {
        try withPostgresStore(creatingWith: Self.log) { store, _ throws in
            #expect(try store.skippedTables().isEmpty)
            let items = try allItems(store, "log")
            #expect(items.count == 4)
            #expect(Set(items.map(\.id)).count == 4)
            #expect(items.map { $0.attributes["message"] } == ["start", "tick", "tick", nil])
            #expect(items.allSatisfy { $0.attributes.keys.allSatisfy { ["at", "message"].contains($0) } })
            let ticks = DataStoreRequest(itemType: "log", filter: .attribute("message") == "tick")
            #expect(try store.read { try $0.countItems(forRequest: ticks) } == 2)
            var window = DataStoreRequest(itemType: "log", sortDescriptors: [.descending("at")])
            window.limit = 2
            #expect(try store.read { try $0.items(forRequest: window) }.map { $0.attributes["at"] } == [3, 2])
            let second = try #require(items.dropFirst().first)
            #expect(try store.read { try $0.item(ofType: "log", id: second.id) } == second)
            #expect(try store.read { try $0.item(ofType: "log", id: .string("x")) } == nil)
        }
    }

    @Test("every write fails the block naming the table and saying to add a primary key")
    func refusesWrites() throws {
        try withPostgresStore(creatingWith: Self.log) { store, _ throws in
            let first = try #require(try allItems(store, "log").first)
            let writes: [(DataStoreReadWriteAccessor) throws -> Void] = [
                { try $0.insert(Item(itemType: "log", id: 99, attributes: ["at": 9])) },
                { try $0.save(Item(itemType: "log", id: first.id, attributes: ["at": 9])) },
                { _ = try $0.deleteItem(ofType: "log", id: first.id) },
                { _ = try $0.deleteAllItems(ofType: "log") },
                { _ = try $0.deleteItems(forRequest: DataStoreRequest(itemType: "log")) },
                { _ = try $0.updateItems(forRequest: DataStoreRequest(itemType: "log"), setting: ["at": 0]) },
            ]
            for write in writes {
                let error = expectError(.unsupported) { try store.writeSync { try write($0) } }
                #expect(error?.message.contains("\"log\"") == true, "\(error?.message ?? "no error")")
                #expect(error?.message.contains("ADD PRIMARY KEY") == true)
            }
            #expect(try allItems(store, "log").count == 4)
        }
    }
}
