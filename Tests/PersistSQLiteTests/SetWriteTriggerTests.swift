import Persist
import PersistConformance
import PersistSQLite
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

@Suite("SQLite updateItems on a table whose trigger changes some rows")
struct SQLiteSetWriteAlteringTriggerTests {
    @Test("an update a trigger changes for a selected row after the first changes nothing and names that item")
    func alteredLaterRow() throws {
        try withFileStore(creatingWith: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, w TEXT);
            CREATE TRIGGER t_shout AFTER UPDATE ON t FOR EACH ROW WHEN NEW.id = 2 BEGIN
                UPDATE t SET w = upper(NEW.w) WHERE id = NEW.id;
            END;
            INSERT INTO t VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'x');
            """) { store, _ in
            try expectAlteredUpdateRefused(store)
        }
    }

    @Test("a column set to null that a trigger stamps keeps the trigger's value, as a save does")
    func stampedNull() throws {
        try withFileStore(creatingWith: """
            CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, stamp TEXT);
            CREATE TRIGGER t_stamp AFTER UPDATE ON t FOR EACH ROW WHEN NEW.stamp IS NULL BEGIN
                UPDATE t SET stamp = 'touched' WHERE id = NEW.id;
            END;
            INSERT INTO t VALUES (1, 'a', 'old'), (2, 'b', 'old');
            """) { store, _ in
            let count = try store.writeSync { try $0.updateItems(forRequest: DataStoreRequest(itemType: "t"), setting: ["stamp": .null]) }
            #expect(count == 2)
            #expect(try allItems(store, "t").map { $0["stamp"] } == ["touched", "touched"])
            try store.writeSync { try $0.save(Item(itemType: "t", id: 1, attributes: ["v": "a"])) }
            #expect(try allItems(store, "t").map { $0["stamp"] } == ["touched", "touched"])
        }
    }
}
