import CLibPQ
import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// Legacy code on the store's own writer connection, serialized with write blocks.
@Suite("PostgresDataStore.withRawHandle runs legacy libpq code on the store's connection")
struct EscapeHatchTests {
    @Test("legacy statements see and change the store's items, and the store sees their schema changes")
    func legacyCode() throws {
        try withPostgresStore { store, schema in
            try seed(store, [Item(itemType: "Counter", id: "home", attributes: ["hits": 1])])
            let hits = try store.withRawHandle { connection -> String? in
                let update = PQexec(connection, "UPDATE \(schema).\"Counter\" SET hits = hits + 1 WHERE persist_id = 'home'")
                PQclear(update)
                let result = PQexec(connection, "SELECT hits FROM \(schema).\"Counter\"")
                defer { PQclear(result) }
                return PQgetvalue(result, 0, 0).map { String(cString: $0) }
            }
            #expect(hits == "2")
            #expect(try allItems(store, "Counter").first?["hits"] == 2)
            try store.withRawHandle { connection in
                PQclear(PQexec(connection, "CREATE TABLE \(schema).legacy (id integer PRIMARY KEY, name text); "
                    + "INSERT INTO \(schema).legacy VALUES (1, 'one')"))
            }
            #expect(try allItems(store, "legacy") == [Item(itemType: "legacy", id: 1, attributes: ["name": "one"])])
        }
    }

    @Test("a transaction left open is rolled back and reported as misuse")
    func openTransaction() throws {
        try withPostgresStore { store, schema in
            try seed(store, [Item(itemType: "Note", id: 1)])
            let error = expectError(.misuse) {
                try store.withRawHandle { connection in
                    PQclear(PQexec(connection, "BEGIN; DELETE FROM \(schema).\"Note\""))
                }
            }
            #expect(error?.message.contains("rolled back") == true)
            #expect(try allItems(store, "Note").count == 1)
            // The store goes on working on the same connection.
            try seed(store, [Item(itemType: "Note", id: 2)])
        }
    }

    @Test("inside a block, or before setup, it is misuse")
    func misuse() throws {
        try withPostgresStore { store, _ in
            _ = try store.read { _ in expectError(.misuse) { try store.withRawHandle { _ in 1 } } }
            _ = try store.writeSync { _ in expectError(.misuse) { try store.withRawHandle { _ in 1 } } }
            try store.tearDown()
            expectError(.misuse) { try store.withRawHandle { _ in 1 } }
        }
    }
}

/// Write blocks of separate stores (as of separate processes) on one schema are serialized by
/// the schema's advisory lock, and see each other's schema changes.
@Suite("Stores on the same schema write one block at a time")
struct CrossStoreTests {
    @Test("concurrent read-modify-write blocks of two stores lose no update")
    func noLostUpdates() async throws {
        try withPostgresStore { first, schema in
            let second = PostgresDataStore(url: try TestServer.url(), options: TestStores.quietOptions { $0.schema = schema })
            try second.setup()
            defer { try? second.tearDown() }
            try seed(first, [Item(itemType: "Counter", id: "c", attributes: ["n": 0])])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let store = index == 0 ? first : second
                for _ in 0..<40 {
                    try? store.writeSync { accessor in
                        let counter = try accessor.mutableVersion(ofItem: Item(itemType: "Counter", id: "c"))
                        counter?["n"] = .int((counter?["n"]?.intValue ?? 0) + 1)
                    }
                }
            }
            #expect(try allItems(first, "Counter").first?["n"] == 80)
        }
    }

    @Test("a column another store added or widened is used by the next write block and read")
    func schemaChangesOfAnotherStore() throws {
        try withPostgresStore { first, schema in
            let second = PostgresDataStore(url: try TestServer.url(), options: TestStores.quietOptions { $0.schema = schema })
            try second.setup()
            defer { try? second.tearDown() }
            try seed(first, [Item(itemType: "Note", id: 1, attributes: ["a": 1])])
            #expect(try allItems(second, "Note").count == 1)
            try seed(second, [Item(itemType: "Note", id: 2, attributes: ["a": "now a string", "b": true]),
                              Item(itemType: "Other", id: 1)])
            try first.writeSync { accessor in
                let note = try accessor.mutableVersion(ofItem: Item(itemType: "Note", id: 2))
                note?["c"] = 3
            }
            let expected = [Item(itemType: "Note", id: 1, attributes: ["a": 1]),
                            Item(itemType: "Note", id: 2, attributes: ["a": "now a string", "b": true, "c": 3])]
            #expect(try allItems(first, "Note") == expected)
            #expect(try allItems(second, "Note") == expected)
            #expect(try first.read { try $0.itemTypes() } == ["Note", "Other"])
        }
    }
}
