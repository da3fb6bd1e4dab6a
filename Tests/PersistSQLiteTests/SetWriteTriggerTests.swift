import PersistTestSupport
import Testing

@Suite("SQLite updateItems on a table whose trigger skips rows")
struct SQLiteSetWriteTriggerTests {
    @Test("an update a trigger skips for one selected row changes nothing and names that item, and the block goes on")
    func skippedRow() throws {
        try withFileStore(creatingWith: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, w TEXT);
            CREATE TRIGGER t_skip BEFORE UPDATE ON t FOR EACH ROW WHEN OLD.id = 2 BEGIN SELECT RAISE(IGNORE); END;
            INSERT INTO t VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'x');
            """) { store, _ in
            try expectSkippedUpdateRefused(store)
        }
    }
}
