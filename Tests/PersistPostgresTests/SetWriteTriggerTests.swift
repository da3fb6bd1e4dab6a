import PersistTestSupport
import Testing

@Suite("PostgreSQL updateItems on a table whose trigger skips rows")
struct PostgresSetWriteTriggerTests {
    /// The table `t` of ``expectSkippedUpdateRefused(_:)``, whose trigger returns NULL for the row 2.
    static let table = """
        CREATE TABLE t (id integer PRIMARY KEY, v text, w text);
        CREATE FUNCTION skip_two() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF OLD.id = 2 THEN RETURN NULL; END IF; RETURN NEW; END $$;
        CREATE TRIGGER t_skip BEFORE UPDATE ON t FOR EACH ROW EXECUTE FUNCTION skip_two();
        INSERT INTO t VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'x');
        """

    @Test("an update a trigger skips for one selected row changes nothing and names that item, and the block goes on")
    func skippedRow() throws {
        try withPostgresStore(creatingWith: Self.table) { store, _ in try expectSkippedUpdateRefused(store) }
    }
}

@Suite("PostgreSQL updateItems on a table whose trigger changes some rows")
struct PostgresSetWriteAlteringTriggerTests {
    @Test("an update a trigger changes for a selected row after the first changes nothing and names that item")
    func alteredLaterRow() throws {
        try withPostgresStore(creatingWith: """
            CREATE TABLE t (id integer PRIMARY KEY, v text, w text);
            CREATE FUNCTION shout_two() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.id = 2 THEN NEW.w := upper(NEW.w); END IF; RETURN NEW; END $$;
            CREATE TRIGGER t_shout BEFORE UPDATE ON t FOR EACH ROW EXECUTE FUNCTION shout_two();
            INSERT INTO t VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'x');
            """) { store, _ in try expectAlteredUpdateRefused(store) }
    }
}
