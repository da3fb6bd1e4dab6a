import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

@Suite("A write block that rolls back the tables it made leaves no stale statement behind")
struct RolledBackSchemaTests {
    struct Stop: Error {}

    @Test("a table made again in another shape after a failed block reads as it is now")
    func remadeTable() throws {
        try withPostgresStore { store, _ throws in
            // The first block makes Track with two columns, reads a track by id, and fails.
            _ = try? store.writeSync { accessor in
                try accessor.insert(Item(itemType: "Track", id: "t1", attributes: ["albumId": 1, "rank": 2]))
                _ = try accessor.item(ofType: "Track", id: "t1")
                throw Stop()
            }
            // The second makes it again with its columns in another order and a third: the same
            // read by id must not run the plan prepared for the table that was rolled back.
            let read = try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "Track", id: "t1", attributes: ["rank": 3, "albumId": 4, "writer": "w"]))
                return try accessor.item(ofType: "Track", id: "t1")
            }
            #expect(read?["writer"] == "w")
            #expect(try allItems(store, "Track").map { $0["rank"] } == [3])
        }
    }
}
