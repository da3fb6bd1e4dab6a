import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// Reads meet columns another connection added after the read block's snapshot began.
@Suite("PostgreSQL reads follow columns other connections add")
struct SchemaChangeReadTests {
    @Test("a read block that has handed out nothing starts over in a fresh snapshot when a result shows new columns")
    func freshSnapshot() throws {
        try withPostgresStore { store, schema in
            try store.writeSync { try $0.insert(Item(itemType: "Wide", id: 1, attributes: ["v": 1])) }
            let items = try store.read { accessor -> [Item] in
                // Opens the block's snapshot and hands out nothing.
                _ = try accessor.item(ofType: "Missing", id: 1)
                let legacy = try TestServer.connect()
                defer { legacy.close() }
                try legacy.executeScript("""
                    ALTER TABLE \(schema)."Wide" ADD COLUMN extra text;
                    INSERT INTO \(schema)."Wide" ("persist_id", extra) VALUES (2, 'added');
                    """)
                return try accessor.items(forRequest: DataStoreRequest(itemType: "Wide"))
            }
            #expect(items.map(\.id) == [1, 2])
            #expect(items.last?["extra"] == "added")
        }
    }

    /// What another connection does to the table `Wide` in the middle of a read block.
    enum TableChange: String, CaseIterable, CustomTestStringConvertible {
        case addColumn = "ALTER TABLE %@.\"Wide\" ADD COLUMN extra text"
        case drop = "DROP TABLE %@.\"Wide\""
        var testDescription: String { self == .drop ? "drops it" : "adds a column" }
    }

    @Test("a read block that has handed out results, then meets a table another connection changed, says to retry",
          arguments: TableChange.allCases)
    func keptSnapshot(_ change: TableChange) throws {
        try withPostgresStore { store, schema in
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "Wide", id: 1, attributes: ["v": 1]))
                try accessor.insert(Item(itemType: "Other", id: 1))
            }
            let error = expectError(.io) {
                try store.read { accessor in
                    // Items of another table: the block's snapshot is now handed out, and no lock
                    // is held on the table the other connection changes.
                    _ = try accessor.items(forRequest: DataStoreRequest(itemType: "Other"))
                    let legacy = try TestServer.connect()
                    defer { legacy.close() }
                    try legacy.executeScript(change.rawValue.replacingOccurrences(of: "%@", with: schema))
                    return try accessor.items(forRequest: DataStoreRequest(itemType: "Wide"))
                }
            }
            #expect(error?.message.contains("changed while they were read") == true, "\(String(describing: error))")
            #expect(error?.message.contains("create it first") == false, "\(String(describing: error))")
            let left = try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Wide")) }
            if change == .drop {
                #expect(error?.engineMessage?.hasPrefix("42P01") == true, "\(String(describing: error))")
                #expect(left.isEmpty)
            } else {
                #expect(left.count == 1)
            }
        }
    }
}
