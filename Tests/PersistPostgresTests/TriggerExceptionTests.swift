import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// A trigger that raises an exception refuses the write as a constraint does: `invalidArgument`,
/// naming the item, with the server's message, and the block goes on.
@Suite("PostgresDataStore reports a trigger's exception as a refusal")
struct TriggerExceptionTests {
    static let sql = """
        CREATE TABLE guarded (id int PRIMARY KEY, v text);
        CREATE FUNCTION refuse_bad() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.v = 'bad' THEN RAISE EXCEPTION 'v may not be bad (row %)', NEW.id; END IF;
            IF NEW.v = 'assert' THEN ASSERT false, 'asserted away'; END IF;
            RETURN NEW;
        END $$;
        CREATE TRIGGER refuse_bad BEFORE INSERT OR UPDATE ON guarded FOR EACH ROW EXECUTE FUNCTION refuse_bad();
        INSERT INTO guarded VALUES (1, 'ok');
        """

    @Test("RAISE EXCEPTION and ASSERT in a trigger are invalidArgument naming the item, and the block goes on")
    func raised() throws {
        try withPostgresStore(creatingWith: Self.sql) { store, _ in
            try store.writeSync { accessor throws in
                let inserted = expectError(.invalidArgument) {
                    try accessor.insert(Item(itemType: "guarded", id: 2, attributes: ["v": "bad"]))
                }
                #expect(inserted?.items == [ItemReference(itemType: "guarded", id: 2)])
                #expect(inserted?.message.contains("v may not be bad (row 2)") == true, "\(String(describing: inserted))")
                #expect(inserted?.engineMessage?.hasPrefix("P0001: ") == true)
                let saved = expectError(.invalidArgument) {
                    try accessor.save(Item(itemType: "guarded", id: 1, attributes: ["v": "assert"]))
                }
                #expect(saved?.items == [ItemReference(itemType: "guarded", id: 1)])
                #expect(saved?.message.contains("asserted away") == true, "\(String(describing: saved))")
                let updated = expectError(.invalidArgument) {
                    _ = try accessor.updateItems(forRequest: DataStoreRequest(itemType: "guarded"), setting: ["v": "bad"])
                }
                #expect(updated?.items == [ItemReference(itemType: "guarded", id: 1)])
                try accessor.insert(Item(itemType: "guarded", id: 3, attributes: ["v": "fine"]))
            }
            #expect(try allItems(store, "guarded").map(\.id) == [1, 3])
        }
    }
}
