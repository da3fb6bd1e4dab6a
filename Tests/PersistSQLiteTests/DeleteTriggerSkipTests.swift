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
            try expectSkippedSetDeleteRefused(store)
            let raw = try RawDatabase(path)
            defer { raw.close() }
            #expect(try raw.rows("SELECT gone FROM audit ORDER BY n") == [[.integer(1)], [.integer(3)]])
        }
    }

    @Test("deleteItem and deleteAllItems a trigger skips are refused naming the item, not reported as a missing item")
    func singleAndAll() throws {
        try withFileStore(creatingWith: Self.schema) { store, _ in try expectSkippedDeletesRefused(store) }
    }
}
