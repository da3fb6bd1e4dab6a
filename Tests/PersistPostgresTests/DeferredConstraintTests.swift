import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// Constraints `INITIALLY DEFERRED` are checked when the block commits: the error has the code an
/// immediate check would give and says it was found at commit, naming the constraint.
@Suite("PostgresDataStore reports deferred constraints that fail at commit")
struct DeferredConstraintTests {
    static let sql = """
        CREATE TABLE du (id int PRIMARY KEY, email text UNIQUE DEFERRABLE INITIALLY DEFERRED);
        CREATE TABLE dk (id int PRIMARY KEY DEFERRABLE INITIALLY DEFERRED, v text);
        CREATE TABLE parent (id int PRIMARY KEY, child int);
        CREATE TABLE child (id int PRIMARY KEY, parent int REFERENCES parent DEFERRABLE INITIALLY DEFERRED);
        ALTER TABLE parent ADD FOREIGN KEY (child) REFERENCES child DEFERRABLE INITIALLY DEFERRED;
        -- A legacy log that copies each entry into dk, which refuses a taken key only at commit.
        CREATE TABLE entry (id int PRIMARY KEY, v text);
        CREATE FUNCTION copy_entry() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO dk VALUES (NEW.id, NEW.v); RETURN NEW; END $$;
        CREATE TRIGGER copy_entry AFTER INSERT ON entry FOR EACH ROW EXECUTE FUNCTION copy_entry();
        INSERT INTO du VALUES (1, 'a@example.com'); INSERT INTO dk VALUES (1, 'legacy');
        """

    @Test("a deferred UNIQUE on another column is uniqueViolation, the deferred key alreadyExists, a deferred FK referenceViolation")
    func atCommit() throws {
        try withPostgresStore(creatingWith: Self.sql) { store, schema throws in
            let unique = expectError(.uniqueViolation) {
                try store.writeSync { try $0.insert(Item(itemType: "du", id: 2, attributes: ["email": "a@example.com"])) }
            }
            for expected in ["found at commit", "\"du_email_key\"", "\"\(schema)\".\"du\"",
                             "Key (email)=(a@example.com)"] {
                #expect(unique?.message.contains(expected) == true, "\(expected): \(String(describing: unique))")
            }
            #expect(unique?.engineMessage?.hasPrefix("23505: ") == true)
            let key = expectError(.alreadyExists) {
                try store.writeSync { try $0.insert(Item(itemType: "entry", id: 1, attributes: ["v": "again"])) }
            }
            #expect(key?.message.contains("\"dk_pkey\"") == true, "\(String(describing: key))")
            #expect(key?.message.contains("found at commit") == true, "\(String(describing: key))")
            #expect(key?.message.contains("Key (id)=(1)") == true, "\(String(describing: key))")
            // The foreign key is a relation: the block's check names both items before PostgreSQL's at commit.
            let foreign = expectError(.referenceViolation) {
                try store.writeSync { try $0.insert(Item(itemType: "child", id: 1, attributes: ["parent": 9])) }
            }
            #expect(foreign?.message.contains("child_parent_fkey") == true, "\(String(describing: foreign))")
            #expect(foreign?.items == [ItemReference(itemType: "child", id: 1), ItemReference(itemType: "parent", id: 9)])
            // Nothing of the refused blocks was stored.
            #expect(try allItems(store, "du").count == 1)
            #expect(try allItems(store, "entry").isEmpty)
            #expect(try allItems(store, "child").isEmpty)
        }
    }

    @Test("deferred foreign keys still let a block write rows that refer to each other")
    func circular() throws {
        try withPostgresStore(creatingWith: Self.sql) { store, _ throws in
            try store.writeSync { accessor throws in
                try accessor.insert(Item(itemType: "child", id: 1, attributes: ["parent": 1]))
                try accessor.insert(Item(itemType: "parent", id: 1, attributes: ["child": 1]))
            }
            #expect(try allItems(store, "child") == [Item(itemType: "child", id: 1, attributes: ["parent": 1])])
        }
    }
}
