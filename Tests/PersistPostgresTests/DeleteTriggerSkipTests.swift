import Persist
import PersistConformance
import PersistPostgres
import PersistTestSupport
import Testing

/// Adopted tables whose `BEFORE DELETE` trigger keeps some rows (`RETURN NULL`), or whose rule
/// does (`DO INSTEAD NOTHING`): a delete the table skips is refused, naming the item, as a
/// skipped insert or update is, rather than reported as done (or, for one item, as if it did not
/// exist).
@Suite("PostgreSQL deletes on tables whose trigger or rule skips rows")
struct PostgresDeleteTriggerSkipTests {
    static let triggered = """
        CREATE TABLE guarded (id integer PRIMARY KEY, v text);
        INSERT INTO guarded VALUES (1, 'a'), (2, 'keep'), (3, 'c');
        CREATE TABLE audit (n serial PRIMARY KEY, gone integer);
        CREATE FUNCTION keep_some() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF OLD.v = 'keep' THEN RETURN NULL; END IF; RETURN OLD; END $$;
        CREATE FUNCTION audit_delete() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
            BEGIN INSERT INTO audit (gone) VALUES (OLD.id); RETURN NULL; END $$;
        CREATE TRIGGER guarded_keep BEFORE DELETE ON guarded FOR EACH ROW EXECUTE FUNCTION keep_some();
        CREATE TRIGGER guarded_audit AFTER DELETE ON guarded FOR EACH ROW EXECUTE FUNCTION audit_delete();
        """
    static let ruled = """
        CREATE TABLE guarded (id integer PRIMARY KEY, v text);
        INSERT INTO guarded VALUES (1, 'a'), (2, 'keep'), (3, 'c');
        CREATE RULE guarded_keep AS ON DELETE TO guarded WHERE OLD.v = 'keep' DO INSTEAD NOTHING;
        """

    @Test("deleteItems a trigger skips for one selected row deletes nothing, names that item, and the block goes on")
    func setDelete() throws {
        try withPostgresStore(creatingWith: Self.triggered) { store, schema in
            try expectSkippedSetDeleteRefused(store)
            let connection = try TestServer.connect()
            defer { connection.close() }
            let audit = try connection.execute("SELECT string_agg(gone::text, ',' ORDER BY n) FROM \(schema).audit")
            #expect(try audit.text(0, 0) == "1,3")
        }
    }

    @Test("deleteItem and deleteAllItems a trigger skips are refused naming the item, not reported as a missing item")
    func singleAndAll() throws {
        try withPostgresStore(creatingWith: Self.triggered) { store, _ in try expectSkippedDeletesRefused(store) }
    }

    @Test("deletes a DO INSTEAD NOTHING rule skips are refused the same way")
    func rule() throws {
        try withPostgresStore(creatingWith: Self.ruled) { store, _ in try expectSkippedSetDeleteRefused(store) }
        try withPostgresStore(creatingWith: Self.ruled) { store, _ in try expectSkippedDeletesRefused(store) }
    }
}
