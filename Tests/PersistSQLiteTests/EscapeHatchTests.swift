import CSQLite
import Dispatch
import Foundation
import Persist
import PersistConformance
import PersistSQLite
import Testing
import PersistTestSupport

/// Legacy call sites on the store's own connection, serialized with write blocks.
@Suite("SQLiteDataStore.withRawHandle runs legacy code safely")
struct EscapeHatchTests {
    @Test("legacy SQL and accessors see each other's committed changes, schema changes included")
    func sharedFile() throws {
        try withFileStore { store, _ throws in
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: "n1", attributes: ["text": "from accessors"])) }
            let count = try store.withRawHandle { db -> [[RawValue]] in
                let raw = RawDatabase(borrowing: db)
                try raw.exec("""
                    INSERT INTO Note (persist_id, text) VALUES ('n2', 'from legacy code');
                    CREATE TABLE legacy_log (id INTEGER PRIMARY KEY, line TEXT);
                    INSERT INTO legacy_log (line) VALUES ('hello');
                    """)
                return try raw.rows("SELECT count(*) FROM Note")
            }
            #expect(count == [[.integer(2)]])
            #expect(try allItems(store, "Note").map { $0["text"] } == ["from accessors", "from legacy code"])
            #expect(try allItems(store, "legacy_log") == [Item(itemType: "legacy_log", id: 1, attributes: ["line": "hello"])])
            try store.writeSync { try $0.insert(Item(itemType: "legacy_log", id: 2, attributes: ["line": "bye"])) }
        }
    }

    @Test("a transaction left open is rolled back and reported as misuse")
    func openTransaction() throws {
        try withFileStore { store, _ throws in
            let error = expectError(.misuse) {
                try store.withRawHandle { db in
                    try RawDatabase(borrowing: db).exec("BEGIN; CREATE TABLE dangling (v); INSERT INTO dangling VALUES (1);")
                }
            }
            #expect(error?.message.contains("left a transaction open") == true)
            #expect(try store.read { try $0.itemTypes() }.isEmpty)
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: 1)) }
            #expect(try allItems(store, "Note").count == 1)
        }
    }

    @Test("a throwing closure's open transaction is rolled back and its error rethrown")
    func throwingClosure() throws {
        try withFileStore { store, _ throws in
            #expect(throws: RawDatabaseError.self) {
                try store.withRawHandle { db in
                    try RawDatabase(borrowing: db).exec("BEGIN; CREATE TABLE dangling (v);")
                    throw RawDatabaseError(message: "legacy failure")
                }
            }
            #expect(try store.read { try $0.itemTypes() }.isEmpty)
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: 1)) }
        }
    }

    @Test("inside the store's own blocks, or when it is not open, the escape hatch is misuse")
    func misuse() throws {
        try withFileStore { store, _ throws in
            try store.writeSync { _ in
                expectError(.misuse) { try store.withRawHandle { _ in 1 } }
            }
            _ = try store.read { _ in
                let error = expectError(.misuse) { try store.withRawHandle { _ in 1 } }
                // The message names what the caller called.
                #expect(error?.message.hasPrefix("withRawHandle was called inside a read block") == true,
                        "\(String(describing: error))")
            }
            try store.tearDown()
            expectError(.misuse) { try store.withRawHandle { _ in 1 } }
        }
    }

    @Test("legacy calls and write blocks from many threads are serialized: no update is lost")
    func serializedWithWrites() throws {
        try withFileStore { store, _ throws in
            try store.writeSync { try $0.insert(Item(itemType: "Counter", id: "c", attributes: ["n": 0])) }
            let failures = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for step in 0..<20 {
                    do {
                        if (worker + step).isMultiple(of: 2) {
                            try store.withRawHandle { db in
                                // Read, then write, as legacy code does: only safe when serialized.
                                let raw = RawDatabase(borrowing: db)
                                guard case .integer(let n) = try raw.rows("SELECT n FROM Counter").first?.first else {
                                    throw RawDatabaseError(message: "no counter")
                                }
                                _ = try raw.rows("UPDATE Counter SET n = ?", [.integer(n + 1)])
                            }
                        } else {
                            try store.writeSync { accessor throws in
                                let counter = try accessor.mutableVersion(ofItem: Item(itemType: "Counter", id: "c"))
                                counter?["n"] = .int((counter?["n"]?.intValue ?? 0) + 1)
                            }
                        }
                    } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
            }
            #expect(failures.value == 0)
            #expect(try allItems(store, "Counter").first?["n"] == 160)
        }
    }
}
