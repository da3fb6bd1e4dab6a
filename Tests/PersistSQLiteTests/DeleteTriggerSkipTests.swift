import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

/// Adopted tables whose `BEFORE DELETE` trigger keeps some rows with `RAISE(IGNORE)`: a delete
/// the trigger skips is refused, naming the item, as a skipped insert or update is, rather than
/// reported as done (or, for one item, as if it did not exist).
@Suite("SQLite deletes on tables whose trigger skips rows")
struct DeleteTriggerSkipTests {
    static let schema = """
        CREATE TABLE guarded (id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO guarded VALUES (1, 'a'), (2, 'keep'), (3, 'c');
        CREATE TABLE audit (n INTEGER PRIMARY KEY, gone INTEGER);
        CREATE TRIGGER guarded_keep BEFORE DELETE ON guarded WHEN OLD.v = 'keep' BEGIN SELECT RAISE(IGNORE); END;
        CREATE TRIGGER guarded_audit AFTER DELETE ON guarded BEGIN INSERT INTO audit (gone) VALUES (OLD.id); END;
        """

    @Test("deleteItems a trigger skips for one selected row deletes nothing, names that item, and the block goes on")
    func setDelete() throws {
        try withFileStore(creatingWith: Self.schema) { store, path in
            let every = DataStoreRequest(itemType: "guarded")
            let before = try allItems(store, "guarded")
            try store.writeSync { accessor throws in
                let refused = expectError(.invalidArgument) { try accessor.deleteItems(forRequest: every) }
                #expect(refused?.items == [ItemReference(itemType: "guarded", id: 2)])
                #expect(refused?.message.contains("a trigger of the table skipped the row") == true, "\(refused?.message ?? "")")
                #expect(try accessor.items(forRequest: every) == before)
                var others = every
                others.filter = .attribute("v") != "keep"
                #expect(try accessor.deleteItems(forRequest: others) == 2)
            }
            #expect(try allItems(store, "guarded").map(\.id) == [2])
            let raw = try RawDatabase(path)
            defer { raw.close() }
            #expect(try raw.rows("SELECT gone FROM audit ORDER BY n") == [[.integer(1)], [.integer(3)]])
        }
    }

    @Test("deleteItem and deleteAllItems a trigger skips are refused naming the item, not reported as a missing item")
    func singleAndAll() throws {
        try withFileStore(creatingWith: Self.schema) { store, _ in
            try store.writeSync { accessor throws in
                let single = expectError(.invalidArgument) { try accessor.deleteItem(ofType: "guarded", id: 2) }
                #expect(single?.items == [ItemReference(itemType: "guarded", id: 2)])
                #expect(try accessor.deleteItem(ofType: "guarded", id: 9) == false)
                let all = expectError(.invalidArgument) { try accessor.deleteAllItems(ofType: "guarded") }
                #expect(all?.items == [ItemReference(itemType: "guarded", id: 2)])
                #expect(try accessor.items(forRequest: DataStoreRequest(itemType: "guarded")).count == 3)
                #expect(try accessor.deleteItem(ofType: "guarded", id: 1))
            }
            #expect(try allItems(store, "guarded").map(\.id) == [2, 3])
        }
    }
}
