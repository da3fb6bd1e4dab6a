import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// Legacy code dropping, recreating or renaming a table the store created, while the store is open.
@Suite("PostgreSQL tables legacy code recreated or renamed are what they are now")
struct LegacyRecreatedTableTests {
    /// Runs `sql` on a connection of its own, in the store's schema.
    private func legacy(_ schema: String, _ sql: String) throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        _ = try connection.executeScript("SET search_path TO \(schema); \(sql)")
    }

    @Test("a table the store created that legacy code dropped and made again with a text key is read and written by that key")
    func recreatedWithAnotherKeyType() throws {
        try withPostgresStore { store, schema in
            try store.writeSync { try $0.insert(Item(itemType: "person", id: 1, attributes: ["age": 30])) }
            #expect(try store.read { try $0.item(ofType: "person", id: 1) } != nil)
            try legacy(schema, """
                DROP TABLE person;
                CREATE TABLE person (persist_id text PRIMARY KEY, age int, name text);
                INSERT INTO person VALUES ('1', 9, 'one');
                """)
            let one = Item(itemType: "person", id: "1", attributes: ["age": 9, "name": "one"])
            #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "person")) } == [one])
            #expect(try store.read { try $0.item(ofType: "person", id: "1") } == one)
            let two = Item(itemType: "person", id: "2", attributes: ["age": 2, "name": "two"])
            try store.writeSync { try $0.insert(two) }
            #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "person")) } == [one, two])
        }
    }

    @Test("after legacy code renamed a table the store created, a new item of its old type gets a new table")
    func renamedAway() throws {
        try withPostgresStore { store, schema in
            try store.writeSync { try $0.insert(Item(itemType: "person", id: 1, attributes: ["age": 30])) }
            try legacy(schema, "ALTER TABLE person RENAME TO people")
            let fresh = Item(itemType: "person", id: "p", attributes: ["name": "new"])
            try store.writeSync { try $0.insert(fresh) }
            #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "person")) } == [fresh])
            #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "people")) }
                == [Item(itemType: "people", id: 1, attributes: ["age": 30])])
        }
    }
}
