import Foundation
import Persist
import PersistPostgres
import Testing

/// A key whose `DEFAULT` is `nextval` of a sequence the table does not own (one several tables
/// share) gives `.nextInteger` identifiers from that sequence, as a `serial` key does.
@Suite("PostgresDataStore gives integer identifiers from a key's DEFAULT nextval sequence")
struct SharedSequenceTests {
    static let sql = """
        CREATE SEQUENCE shared_seq;
        CREATE TABLE a (id int PRIMARY KEY DEFAULT nextval('shared_seq'), v text);
        CREATE TABLE b (id bigint PRIMARY KEY DEFAULT nextval('shared_seq'::regclass), v text);
        CREATE TABLE c (id bigint PRIMARY KEY DEFAULT nextval('shared_seq') + 1000, v text);
        INSERT INTO a (v) VALUES ('legacy a');
        INSERT INTO b (v) VALUES ('legacy b');
        INSERT INTO c (id, v) VALUES (1, 'legacy c');
        """

    @Test("Persist and legacy INSERTs into the tables sharing the sequence never collide")
    func shared() throws {
        try withPostgresStore(creatingWith: Self.sql) { store, schema throws in
            let connection = try TestServer.connect()
            defer { connection.close() }
            func legacy(_ table: String) throws -> Int64? {
                try connection.execute("INSERT INTO \(schema).\(table) (v) VALUES ('legacy') RETURNING id::int8").int64(0, 0)
            }
            let first = try store.writeSync { try $0.createItem(ofType: "a", idGeneration: .nextInteger).id }
            #expect(first == .int(3))
            #expect(try legacy("a") == 4)
            #expect(try store.writeSync { try $0.createItem(ofType: "b", idGeneration: .nextInteger).id } == .int(5))
            // A given identifier ahead of the sequence moves it past, before the block commits.
            try store.writeSync { try $0.insert(Item(itemType: "a", id: 50, attributes: ["v": "given"])) }
            #expect(try legacy("b") == 51)
            // A default computed from the sequence is not the sequence: one above the largest key.
            #expect(try store.writeSync { try $0.createItem(ofType: "c", idGeneration: .nextInteger).id } == .int(2))
            let sequence = try connection.execute("SELECT last_value FROM \(schema).shared_seq")
            #expect(try sequence.int64(0, 0) == 51)
        }
    }

    @Test("a merge of a child store's integer identifiers moves the key's sequence past them")
    func merged() throws {
        try withPostgresStore(creatingWith: "CREATE TABLE todo (id serial PRIMARY KEY, title text)") { store, schema throws in
            let child = try store.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            try child.writeSync { try $0.insert(Item(itemType: "todo", id: 30, attributes: ["title": "child"])) }
            try store.merge(child)
            let connection = try TestServer.connect()
            defer { connection.close() }
            let legacy = try connection.execute("INSERT INTO \(schema).todo (title) VALUES ('legacy') RETURNING id::int8")
            #expect(try legacy.int64(0, 0) == 31)
        }
    }
}
