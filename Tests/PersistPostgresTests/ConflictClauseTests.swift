import Dispatch
import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Synchronization
import Testing

/// Adopted tables `INSERT … ON CONFLICT (key)` cannot write: a `DEFERRABLE` key, which PostgreSQL
/// refuses as an arbiter, and a `NOT NULL` column of an unmapped type without a default, which
/// the row an upsert proposes breaks even when the key is taken.
@Suite("PostgresDataStore writes tables ON CONFLICT cannot")
struct ConflictClauseTests {
    @Test("a save of an existing row keeps a NOT NULL column of an unmapped type; a new row needs its value")
    func unmappedNotNull() throws {
        let sql = """
            CREATE TABLE en (id int PRIMARY KEY, m int4range NOT NULL, note text, n int);
            INSERT INTO en VALUES (1, '[1,2)', 'n', 5), (2, '[3,4)', 'x', 6);
            """
        try withPostgresStore(creatingWith: sql) { store, schema in
            try store.writeSync { accessor throws in
                try accessor.save(Item(itemType: "en", id: 1, attributes: ["note": "changed"]))
                let new = expectError(.invalidArgument) { try accessor.save(Item(itemType: "en", id: 3, attributes: ["note": "new"])) }
                #expect(new?.items == [ItemReference(itemType: "en", id: 3)])
                #expect(new?.message.contains("\"m\"") == true, "\(String(describing: new))")
                expectError(.invalidArgument) { try accessor.insert(Item(itemType: "en", id: 4)) }
                expectError(.alreadyExists) { try accessor.insert(Item(itemType: "en", id: 2, attributes: ["note": "again"])) }
                var sixes = DataStoreRequest(itemType: "en")
                sixes.filter = .attribute("n") == .int(6)
                #expect(try accessor.updateItems(forRequest: sixes, setting: ["note": "updated"]) == 1)
            }
            #expect(try allItems(store, "en") == [Item(itemType: "en", id: 1, attributes: ["note": "changed"]),
                                                  Item(itemType: "en", id: 2, attributes: ["note": "updated", "n": 6])])
            let connection = try TestServer.connect()
            defer { connection.close() }
            let moods = try connection.execute("SELECT m::text FROM \(schema).en ORDER BY id")
            #expect(try (0..<moods.rowCount).map { try moods.text($0, 0) } == ["[1,2)", "[3,4)"])
        }
    }

    @Test("a DEFERRABLE key takes inserts and saves, and a taken key is alreadyExists",
          arguments: ["INITIALLY IMMEDIATE", "INITIALLY DEFERRED"])
    func deferrableKey(_ timing: String) throws {
        let sql = "CREATE TABLE dpk (id int PRIMARY KEY DEFERRABLE \(timing), v text); INSERT INTO dpk VALUES (1, 'legacy');"
        try withPostgresStore(creatingWith: sql) { store, _ in
            try store.writeSync { accessor throws in
                try accessor.insert(Item(itemType: "dpk", id: 2, attributes: ["v": "inserted"]))
                try accessor.save(Item(itemType: "dpk", id: 3, attributes: ["v": "saved"]))
                try accessor.save(Item(itemType: "dpk", id: 1, attributes: ["v": "replaced"]))
                let taken = expectError(.alreadyExists) { try accessor.insert(Item(itemType: "dpk", id: 2, attributes: ["v": "again"])) }
                #expect(taken?.items == [ItemReference(itemType: "dpk", id: 2)])
            }
            #expect(try allItems(store, "dpk") == [Item(itemType: "dpk", id: 1, attributes: ["v": "replaced"]),
                                                   Item(itemType: "dpk", id: 2, attributes: ["v": "inserted"]),
                                                   Item(itemType: "dpk", id: 3, attributes: ["v": "saved"])])
        }
    }

    @Test("a save meeting another session's insert of the same key is a conflict naming the item, and an insert alreadyExists")
    func concurrentInsert() throws {
        let sql = "CREATE TABLE dpk (id int PRIMARY KEY DEFERRABLE INITIALLY IMMEDIATE, v text);"
        try withPostgresStore(creatingWith: sql) { store, schema in
            for (id, replacing) in [(5, true), (6, false)] {
                let other = try TestServer.connect()
                defer { other.close() }
                _ = try other.executeScript("BEGIN; INSERT INTO \(schema).dpk VALUES (\(id), 'other')")
                let outcome = Mutex<DataStoreError?>(nil)
                let done = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    do {
                        try store.writeSync { accessor throws in
                            let item = Item(itemType: "dpk", id: .int(Int64(id)), attributes: ["v": "persist"])
                            try replacing ? accessor.save(item) : accessor.insert(item)
                        }
                    } catch {
                        outcome.withLock { $0 = error as? DataStoreError }
                    }
                    done.signal()
                }
                // The block's insert waits for the other session's row, then fails when it commits.
                Thread.sleep(forTimeInterval: 0.5)
                _ = try other.executeScript("COMMIT")
                done.wait()
                let error = try #require(outcome.withLock { $0 })
                #expect(error.code == (replacing ? .conflict : .alreadyExists), "\(error)")
                #expect(error.items == [ItemReference(itemType: "dpk", id: .int(Int64(id)))])
            }
            #expect(try allItems(store, "dpk").map { $0["v"] } == ["other", "other"])
        }
    }
}
