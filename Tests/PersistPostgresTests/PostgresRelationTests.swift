import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// Relations on PostgreSQL: foreign keys of adopted tables listed as relations, declared relations
/// made foreign keys `DEFERRABLE INITIALLY DEFERRED` and recorded in `persist_relations`, and
/// PostgreSQL's foreign key violations (`23503`) reported as `referenceViolation`.
@Suite("PostgresDataStore keeps relations as foreign keys")
struct PostgresRelationTests {
    static let adoptedSQL = """
        CREATE TABLE album (id int PRIMARY KEY, title text);
        CREATE TABLE pair (a int, b text, PRIMARY KEY (a, b));
        CREATE TABLE code (c text UNIQUE, id int PRIMARY KEY);
        CREATE TABLE track (id int PRIMARY KEY,
            no_action int REFERENCES album,
            restricted int REFERENCES album ON DELETE RESTRICT,
            cascaded int REFERENCES album ON DELETE CASCADE,
            nulled int REFERENCES album ON DELETE SET NULL,
            defaulted int DEFAULT 5 REFERENCES album ON DELETE SET DEFAULT,
            pb text, pa int, code_ref text REFERENCES code (c),
            FOREIGN KEY (pb, pa) REFERENCES pair (b, a));
        INSERT INTO album VALUES (1, 'one'), (5, 'five');
        INSERT INTO track (id, no_action) VALUES (1, 5);
        """

    /// The `pg_constraint` row of the constraint `name` in `schema`: deferrable, initially
    /// deferred, and its delete action; `nil` when there is none.
    static func constraint(_ name: String, in schema: String) throws -> (deferrable: Bool, deferred: Bool, action: String)? {
        let connection = try TestServer.connect()
        defer { connection.close() }
        let result = try connection.execute("""
            SELECT condeferrable, condeferred, confdeltype::text FROM pg_catalog.pg_constraint \
            WHERE conname = $1 AND contype = 'f' AND connamespace = (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = $2)
            """, [.text(name), .text(schema)])
        guard result.rowCount == 1 else { return nil }
        return (try result.bool(0, 0) ?? false, try result.bool(0, 1) ?? false, try result.text(0, 2) ?? "")
    }

    @Test("adopted foreign keys are relations with their actions; one to UNIQUE columns is not")
    func adopted() throws {
        try withPostgresStore(creatingWith: Self.adoptedSQL) { store, _ throws in
            let relations = try store.read { try $0.relations(ofType: "track") }
            let byName = Dictionary(uniqueKeysWithValues: relations.map { ($0.name, $0) })
            #expect(byName["track_no_action_fkey"]?.onDelete == .deny)
            #expect(byName["track_restricted_fkey"]?.onDelete == .deny)
            #expect(byName["track_cascaded_fkey"]?.onDelete == .cascade)
            #expect(byName["track_nulled_fkey"]?.onDelete == .nullify)
            #expect(byName["track_defaulted_fkey"]?.onDelete == .engineAction("SET DEFAULT"))
            #expect(byName["track_cascaded_fkey"]?.attributes == ["cascaded"])
            #expect(byName["track_cascaded_fkey"]?.relatedType == "album")
            // The referring columns in the order of pair's key (a, b), not the constraint's.
            #expect(byName["track_pb_pa_fkey"]?.attributes == ["pa", "pb"])
            #expect(byName["track_pb_pa_fkey"]?.relatedType == "pair")
            #expect(byName["track_code_ref_fkey"] == nil)
            #expect(relations.count == 6)
            // PostgreSQL carries out the adopted actions.
            try store.writeSync { accessor throws in
                try accessor.insert(Item(itemType: "track", id: 2, attributes: ["cascaded": 1]))
                try accessor.insert(Item(itemType: "track", id: 3, attributes: ["nulled": 1]))
                _ = try accessor.deleteItem(ofType: "album", id: 1)
            }
            #expect(try allItems(store, "track").map(\.id) == [1, 3])
            #expect(try store.read { try $0.item(ofType: "track", id: 3) }?.attributes["nulled"] == nil)
        }
    }

    @Test("a foreign key checked at once is referenceViolation naming both items, and the block goes on")
    func immediate() throws {
        try withPostgresStore(creatingWith: Self.adoptedSQL) { store, _ throws in
            try store.writeSync { accessor throws in
                let missing = expectError(.referenceViolation) {
                    try accessor.insert(Item(itemType: "track", id: 9, attributes: ["no_action": 999]))
                }
                #expect(missing?.items == [ItemReference(itemType: "track", id: 9), ItemReference(itemType: "album", id: 999)])
                #expect(missing?.engineMessage?.hasPrefix("23503: ") == true, "\(String(describing: missing))")
                #expect(missing?.message.contains("track_no_action_fkey") == true, "\(String(describing: missing))")
                let referred = expectError(.referenceViolation) { _ = try accessor.deleteItem(ofType: "album", id: 5) }
                #expect(referred?.items == [ItemReference(itemType: "track", id: 1), ItemReference(itemType: "album", id: 5)])
                #expect(referred?.message.contains("still refers to it") == true, "\(String(describing: referred))")
                try accessor.insert(Item(itemType: "track", id: 10, attributes: ["no_action": 5]))
            }
            #expect(try allItems(store, "track").map(\.id) == [1, 10])
        }
    }

    @Test("a reference held in the key is checked when the block ends, naming both items")
    func keyHeld() throws {
        let sql = """
            CREATE TABLE parent (id int PRIMARY KEY);
            CREATE TABLE detail (parent_id int PRIMARY KEY REFERENCES parent DEFERRABLE INITIALLY DEFERRED, v text);
            """
        try withPostgresStore(creatingWith: sql) { store, _ throws in
            #expect(try store.read { try $0.relations(ofType: "detail") }.map(\.attributes) == [["parent_id"]])
            // The reference is the key itself, which no attribute holds: the accessor reads it from the identifier.
            let error = expectError(.referenceViolation) {
                try store.writeSync { try $0.insert(Item(itemType: "detail", id: 9, attributes: ["v": "x"])) }
            }
            #expect(error?.items == [ItemReference(itemType: "detail", id: 9), ItemReference(itemType: "parent", id: 9)],
                    "\(String(describing: error))")
            #expect(try allItems(store, "detail").isEmpty)
        }
    }

    @Test("a deferred foreign key that is no relation fails at commit as referenceViolation")
    func atCommit() throws {
        let sql = """
            CREATE TABLE parent (id int PRIMARY KEY, code text UNIQUE);
            CREATE TABLE detail (id int PRIMARY KEY, parent_code text REFERENCES parent (code) DEFERRABLE INITIALLY DEFERRED);
            """
        try withPostgresStore(creatingWith: sql) { store, _ throws in
            #expect(try store.read { try $0.relations(ofType: "detail") }.isEmpty)
            // A foreign key to a UNIQUE column is no relation: PostgreSQL alone checks it, at commit.
            let error = expectError(.referenceViolation) {
                try store.writeSync { try $0.insert(Item(itemType: "detail", id: 9, attributes: ["parent_code": "x"])) }
            }
            #expect(error?.message.contains("detail_parent_code_fkey") == true, "\(String(describing: error))")
            #expect(error?.engineCode != nil || error?.engineMessage?.hasPrefix("23503") == true, "\(String(describing: error))")
            #expect(try allItems(store, "detail").isEmpty)
        }
    }

    @Test("a declared relation is a deferred foreign key with its action, and PostgreSQL cascades")
    func declared() throws {
        try withPostgresStore { store, schema throws in
            try store.writeSync { accessor throws in
                // Order within a block does not matter: the track comes before its album.
                try accessor.insert(Item(itemType: "Track", id: 1, attributes: ["albumId": 1, "title": "a"]))
                try accessor.insert(Item(itemType: "Album", id: 1, attributes: ["title": "A"]))
                try accessor.insert(Item(itemType: "Track", id: 2, attributes: ["albumId": 1]))
                try accessor.insert(Item(itemType: "Note", id: 1, attributes: ["albumId": 1]))
            }
            try store.writeSync { accessor throws in
                try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .cascade)
                try accessor.ensureRelation(ofType: "Note", on: ["albumId"], to: "Album", onDelete: .nullify, name: "note_album")
            }
            let cascade = try #require(try Self.constraint("Track_albumId_fkey", in: schema))
            #expect(cascade.deferrable && cascade.deferred && cascade.action == "c")
            #expect(try Self.constraint("note_album", in: schema)?.action == "n")
            try store.writeSync { _ = try $0.deleteItem(ofType: "Album", id: 1) }
            #expect(try allItems(store, "Track").isEmpty)
            #expect(try allItems(store, "Note") == [Item(itemType: "Note", id: 1)])
            // The foreign key refuses what the block's own checks would refuse too.
            let error = expectError(.referenceViolation) {
                try store.writeSync { try $0.insert(Item(itemType: "Track", id: 3, attributes: ["albumId": 7])) }
            }
            #expect(error?.items == [ItemReference(itemType: "Track", id: 3), ItemReference(itemType: "Album", id: 7)])
        }
    }

    @Test("declared relations survive reopening, and one declared before its tables becomes a foreign key with them")
    func reopening() throws {
        try withPostgresStore { store, schema throws in
            try store.writeSync { accessor throws in
                try accessor.ensureRelation(ofType: "Line", on: ["orderId"], to: "Order", onDelete: .deny)
            }
            #expect(try Self.constraint("Line_orderId_fkey", in: schema) == nil)
            let reopened = PostgresDataStore(url: try TestServer.url(), options: TestStores.quietOptions { $0.schema = schema })
            try reopened.setup()
            defer { try? reopened.tearDown() }
            let relation = DataStoreRelation(itemType: "Line", attributes: ["orderId"], relatedType: "Order", onDelete: .deny)
            #expect(try reopened.read { try $0.relations(ofType: "Line") } == [relation])
            try reopened.writeSync { accessor throws in
                try accessor.insert(Item(itemType: "Order", id: 1))
                try accessor.insert(Item(itemType: "Line", id: 1, attributes: ["orderId": 1]))
            }
            let made = try #require(try Self.constraint("Line_orderId_fkey", in: schema))
            #expect(made.deferred && made.action == "a")
            #expect(try reopened.read { try $0.relations(ofType: "Line") } == [relation])
            expectError(.referenceViolation) { try reopened.writeSync { _ = try $0.deleteItem(ofType: "Order", id: 1) } }
            #expect(try allItems(reopened, "Order").count == 1)
        }
    }

    @Test("a relation to a table without a primary key is refused, naming it")
    func keyless() throws {
        try withPostgresStore(creatingWith: "CREATE TABLE loose (v int); INSERT INTO loose VALUES (1);") { store, _ throws in
            let error = expectError(.invalidArgument) {
                try store.writeSync { try $0.ensureRelation(ofType: "Thing", on: ["looseRef"], to: "loose", onDelete: .deny) }
            }
            #expect(error?.message.contains("Thing_looseRef_fkey") == true, "\(String(describing: error))")
            #expect(try store.read { try $0.relations(ofType: "Thing") }.isEmpty)
        }
    }

    @Test("relations declared after a load over tables without foreign keys become them, through key columns too")
    func afterLoad() throws {
        // As a migration recreates Chinook's tables, loads them, then declares the source's relations.
        let sql = """
            CREATE TABLE playlist (playlist_id integer PRIMARY KEY, name text);
            CREATE TABLE track (track_id bigint PRIMARY KEY, name text);
            CREATE TABLE playlist_track (playlist_id integer, track_id integer, PRIMARY KEY (playlist_id, track_id));
            INSERT INTO playlist VALUES (1, 'Music'); INSERT INTO track VALUES (1, 'a'), (2, 'b');
            INSERT INTO playlist_track VALUES (1, 1), (1, 2);
            CREATE TABLE orphan (playlist_id integer PRIMARY KEY); INSERT INTO orphan VALUES (5);
            """
        try withPostgresStore(creatingWith: sql) { store, schema throws in
            try store.writeSync { accessor throws in
                try accessor.ensureRelation(ofType: "playlist_track", on: ["playlist_id"], to: "playlist", onDelete: .cascade,
                                            name: "playlist_track_playlist_id_fkey")
                try accessor.ensureRelation(ofType: "playlist_track", on: ["track_id"], to: "track", onDelete: .deny,
                                            name: "playlist_track_track_id_fkey")
            }
            #expect(try Self.constraint("playlist_track_playlist_id_fkey", in: schema)?.action == "c")
            #expect(try Self.constraint("playlist_track_track_id_fkey", in: schema)?.action == "a")
            // The accessor reads the reference the key holds, which no attribute does.
            let error = expectError(.referenceViolation) {
                try store.writeSync { try $0.insert(Item(itemType: "playlist_track", id: .composite([1, 9]))) }
            }
            #expect(error?.items == [ItemReference(itemType: "playlist_track", id: .composite([1, 9])),
                                     ItemReference(itemType: "track", id: 9)], "\(String(describing: error))")
            try store.writeSync { _ = try $0.deleteItem(ofType: "playlist", id: 1) }
            #expect(try allItems(store, "playlist_track").isEmpty)
            // A stored row that breaks the foreign key refuses the declaration, naming it.
            let broken = expectError(.referenceViolation) {
                try store.writeSync { try $0.ensureRelation(ofType: "orphan", on: ["playlist_id"], to: "playlist", onDelete: .deny) }
            }
            #expect(broken?.items == [ItemReference(itemType: "orphan", id: 5), ItemReference(itemType: "playlist", id: 5)],
                    "\(String(describing: broken))")
            #expect(try Self.constraint("orphan_playlist_id_fkey", in: schema) == nil)
            #expect(try store.read { try $0.relations(ofType: "orphan") }.isEmpty)
        }
    }

    @Test("a key that widens to the mixed encoding drops the foreign key, and Persist enforces the relation")
    func widening() throws {
        try withPostgresStore { store, schema throws in
            try store.writeSync { accessor throws in
                try accessor.insert(Item(itemType: "Album", id: 1))
                try accessor.insert(Item(itemType: "Track", id: 1, attributes: ["albumId": 1]))
                try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .deny)
            }
            #expect(try Self.constraint("Track_albumId_fkey", in: schema) != nil)
            try store.writeSync { try $0.insert(Item(itemType: "Album", id: "two")) }
            #expect(try Self.constraint("Track_albumId_fkey", in: schema) == nil)
            #expect(try store.read { try $0.relations(ofType: "Track") }.map(\.name) == ["Track_albumId_fkey"])
            expectError(.referenceViolation) { try store.writeSync { _ = try $0.deleteItem(ofType: "Album", id: 1) } }
            expectError(.referenceViolation) {
                try store.writeSync { try $0.insert(Item(itemType: "Track", id: 2, attributes: ["albumId": 9])) }
            }
            #expect(try allItems(store, "Album").count == 2)
        }
    }

    @Test("dropCreatedTables drops the foreign keys an adopted table was declared to have to a created one")
    func dropping() throws {
        try withPostgresStore(creatingWith: "CREATE TABLE legacy (id int PRIMARY KEY, album bigint)") { store, schema throws in
            try store.writeSync { accessor throws in
                try accessor.insert(Item(itemType: "Album", id: 1))
                try accessor.insert(Item(itemType: "legacy", id: 1, attributes: ["album": 1]))
                try accessor.ensureRelation(ofType: "legacy", on: ["album"], to: "Album", onDelete: .cascade)
            }
            #expect(try Self.constraint("legacy_album_fkey", in: schema) != nil)
            try store.tearDown()
            try PostgresDataStore.dropCreatedTables(at: TestServer.url(), schema: schema, options: TestStores.quietOptions())
            #expect(try Self.constraint("legacy_album_fkey", in: schema) == nil)
            let reopened = PostgresDataStore(url: try TestServer.url(), options: TestStores.quietOptions { $0.schema = schema })
            try reopened.setup()
            defer { try? reopened.tearDown() }
            #expect(try allItems(reopened, "legacy") == [Item(itemType: "legacy", id: 1, attributes: ["album": 1])])
            #expect(try allItems(reopened, "Album").isEmpty)
            #expect(try reopened.read { try $0.relations(ofType: "legacy") }.isEmpty)
        }
    }

    @Test("items(ofType:ids:) reads created, composite and mixed keys in one statement")
    func itemsByIDs() throws {
        let sql = "CREATE TABLE pair (a int, b text, v text, PRIMARY KEY (a, b)); INSERT INTO pair VALUES (1, 'x', 'p'), (2, 'y', 'q');"
        try withPostgresStore(creatingWith: sql) { store, _ throws in
            try store.writeSync { accessor throws in
                for id in 1...3 { try accessor.insert(Item(itemType: "Album", id: .int(Int64(id)), attributes: ["n": .int(Int64(id))])) }
                try accessor.insert(Item(itemType: "Mixed", id: 1))
                try accessor.insert(Item(itemType: "Mixed", id: "one"))
            }
            try store.scheduler.engine.read { reader throws in
                let albums = try reader.items(ofType: "Album", ids: [1, 3, 9, "nope"])
                #expect(Set(albums.map(\.id)) == [1, 3])
                let pairs = try reader.items(ofType: "pair", ids: [.composite([2, "y"]), .composite([1, "y"]), 5])
                #expect(pairs == [Item(itemType: "pair", id: .composite([2, "y"]), attributes: ["v": "q"])])
                #expect(Set(try reader.items(ofType: "Mixed", ids: ["one", 1, 2]).map(\.id)) == [1, "one"])
                #expect(try reader.items(ofType: "Missing", ids: [1]).isEmpty)
            }
        }
    }
}
