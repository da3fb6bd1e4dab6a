import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// Legacy schemas and values at the edges of what PostgreSQL holds.
@Suite("PostgreSQL stores meet legacy tables and extreme values as the other stores do")
struct LegacyEdgeTests {
    @Test("filters on date, timestamp and timestamptz columns compare with dates beyond PostgreSQL's range")
    func datesBeyondTheServersRange() throws {
        try withPostgresStore(creatingWith: """
            CREATE TABLE t (id integer PRIMARY KEY, d date, ts timestamp, tz timestamptz);
            INSERT INTO t VALUES (1, '2024-01-01', '2024-01-01 00:00:00', '2024-01-01 00:00:00+00'),
                (2, 'infinity', 'infinity', 'infinity');
            """) { store, _ throws in
            let early = Date(timeIntervalSinceReferenceDate: -3e11)   // about 7500 BC
            let late = Date(timeIntervalSinceReferenceDate: 1e17)     // beyond the year 294276
            for attribute in ["d", "ts", "tz"] {
                func count(_ filter: DataStorePredicate) throws -> Int {
                    var request = DataStoreRequest(itemType: "t")
                    request.filter = filter
                    return try store.read { accessor in try accessor.countItems(forRequest: request) }
                }
                #expect(try count(.attribute(attribute) > .date(early)) == 2, "\(attribute)")
                #expect(try count(.attribute(attribute) < .date(early)) == 0, "\(attribute)")
                #expect(try count(.attribute(attribute) < .date(late)) == 1, "\(attribute)")
                #expect(try count(.attribute(attribute) >= .date(late)) == 1, "\(attribute)")
            }
        }
    }

    @Test("a legacy JSON number beyond the doubles' range reads as an infinity, and the table stays readable")
    func hugeJSONNumber() throws {
        try withPostgresStore(creatingWith: """
            CREATE TABLE j (id integer PRIMARY KEY, doc jsonb);
            INSERT INTO j VALUES (1, '{"a": 1}'), (2, '{"a": 1e400}');
            """) { store, _ throws in
            let items = try store.read { accessor in try accessor.items(forRequest: DataStoreRequest(itemType: "j")) }
            #expect(items.map { $0["doc"] } == [["a": 1], ["a": .double(.infinity)]])
        }
    }

    @Test("a table other tables inherit from is skipped, so its items never include theirs; the inheriting table is adopted")
    func inheritance() throws {
        try withPostgresStore(creatingWith: """
            CREATE TABLE animal (id integer PRIMARY KEY, name text);
            CREATE TABLE dog (id integer PRIMARY KEY, breed text) INHERITS (animal);
            INSERT INTO animal VALUES (1, 'cat');
            INSERT INTO dog VALUES (1, 'rex', 'collie'), (2, 'fido', 'pug');
            """) { store, _ throws in
            #expect(try store.skippedTables().map(\.name) == ["animal"])
            #expect(try store.read { try $0.itemTypes() } == ["dog"])
            #expect(try store.writeSync { try $0.deleteAllItems(ofType: "animal") } == 0)
            #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "dog")) } == 2)
        }
    }

    @Test("a table whose key has a nondeterministic collation is skipped: a delete of \"rust\" never reaches the row \"Rust\"")
    func nondeterministicKey() throws {
        try withPostgresStore(creatingWith: """
            CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
            CREATE TABLE tags (name text COLLATE ci PRIMARY KEY, cnt integer);
            INSERT INTO tags VALUES ('Swift', 1), ('Rust', 2);
            """) { store, schema throws in
            let skipped = try store.skippedTables()
            #expect(skipped.map(\.name) == ["tags"])
            #expect(skipped.first.map { "\($0.reason)".contains("nondeterministic collation \"ci\"") } == true, "\(skipped)")
            #expect(try store.read { try $0.itemTypes() }.isEmpty)
            #expect(try store.writeSync { try $0.deleteItem(ofType: "tags", id: "rust") } == false)
            let connection = try TestServer.connect()
            defer { connection.close() }
            let rows = try connection.executeScript("SELECT string_agg(name, ',' ORDER BY cnt) FROM \(schema).tags")
            #expect(try rows.text(0, 0) == "Swift,Rust")
        }
    }

    @Test("a created column that legacy code dropped and added again with another type is read as the adopted column it is")
    func createdColumnRetyped() throws {
        try withPostgresStore(creatingWith: "CREATE TABLE t (id integer PRIMARY KEY, a text)") { store, schema throws in
            try store.writeSync { try $0.save(Item(itemType: "t", id: 1, attributes: ["a": "a1", "vip": true])) }
            let connection = try TestServer.connect()
            defer { connection.close() }
            try connection.executeScript("""
                ALTER TABLE \(schema).t DROP COLUMN vip; ALTER TABLE \(schema).t ADD COLUMN vip text;
                UPDATE \(schema).t SET vip = 'gold';
                """)
            #expect(try store.read { try $0.item(ofType: "t", id: 1) }?.attributes == ["a": "a1", "vip": "gold"])
            try store.writeSync { try $0.save(Item(itemType: "t", id: 2, attributes: ["a": "a2", "vip": "silver"])) }
            let rows = try connection.executeScript("SELECT string_agg(vip, ',' ORDER BY id) FROM \(schema).t")
            #expect(try rows.text(0, 0) == "gold,silver")
        }
    }

    @Test("a trigger that stamps updated_at lets saves and inserts without it through, and refuses, naming the trigger, those that give it")
    func stampingTrigger() throws {
        try withPostgresStore(creatingWith: """
            CREATE TABLE prod (id integer PRIMARY KEY, name text, price numeric(10,2), updated_at timestamptz);
            CREATE FUNCTION stamp() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN NEW.updated_at = now() + interval '1 day'; RETURN NEW; END $$;
            CREATE TRIGGER stamp BEFORE INSERT OR UPDATE ON prod FOR EACH ROW EXECUTE FUNCTION stamp();
            INSERT INTO prod (id, name, price) VALUES (1, 'pen', 1.50);
            """) { store, _ throws in
            let read = try #require(try store.read { try $0.item(ofType: "prod", id: 1) })
            #expect(read["updated_at"] != nil)
            let stamped = expectError(.typeMismatch) { try store.writeSync { try $0.save(read.setting(["name": "pen 2"])) } }
            #expect(stamped?.message.contains("or a trigger or rule of the table, would turn the date") == true,
                    "\(String(describing: stamped))")
            try store.writeSync { try $0.save(read.setting(["name": "pen 2", "updated_at": .null])) }
            try store.writeSync { try $0.insert(Item(itemType: "prod", id: 2, attributes: ["name": "ink"])) }
            let saved = try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "prod")) }
            #expect(saved.map { $0["name"] } == ["pen 2", "ink"])
            #expect(saved.allSatisfy { ($0["updated_at"]?.dateValue ?? .distantPast) > Date() }, "\(saved)")
            let error = expectError(.typeMismatch) {
                try store.writeSync { try $0.save(Item(itemType: "prod", id: 1, attributes: ["price": 1.234])) }
            }
            #expect(error?.message.contains("of type numeric") == true, "\(String(describing: error))")
        }
    }

    @Test("a row a trigger skips is refused, for an insert and a save, and nothing is written")
    func skippingTrigger() throws {
        try withPostgresStore(creatingWith: """
            CREATE TABLE t (id integer PRIMARY KEY, name text, locked boolean);
            CREATE FUNCTION skip_locked() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.locked THEN RETURN NULL; END IF; RETURN NEW; END $$;
            CREATE TRIGGER skip BEFORE INSERT OR UPDATE ON t FOR EACH ROW EXECUTE FUNCTION skip_locked();
            INSERT INTO t VALUES (1, 'a', false);
            """) { store, _ throws in
            let locked = Item(itemType: "t", id: 2, attributes: ["name": "b", "locked": true])
            let error = expectError(.invalidArgument) { try store.writeSync { try $0.insert(locked) } }
            #expect(error?.message.contains("trigger") == true)
            #expect(error?.items == [locked.reference])
            expectError(.invalidArgument) { try store.writeSync { try $0.save(locked) } }
            expectError(.invalidArgument) {
                try store.writeSync { try $0.save(Item(itemType: "t", id: 1, attributes: ["name": "z", "locked": true])) }
            }
            #expect(try allItems(store, "t") == [Item(itemType: "t", id: 1, attributes: ["name": "a", "locked": false])])
            // An existing key is still alreadyExists, and a save of an allowed row goes through.
            expectError(.alreadyExists) { try store.writeSync { try $0.insert(Item(itemType: "t", id: 1, attributes: ["name": "c"])) } }
            try store.writeSync { try $0.save(Item(itemType: "t", id: 1, attributes: ["name": "d", "locked": false])) }
            #expect(try allItems(store, "t").map { $0["name"] } == ["d"])
        }
    }

    @Test("a full smallint key has no next integer identifier: unsupported, not one the column cannot hold")
    func fullSmallintKey() throws {
        try withPostgresStore(creatingWith: """
            CREATE TABLE s (id smallint PRIMARY KEY, name text);
            INSERT INTO s VALUES (32767, 'last');
            """) { store, _ throws in
            let error = expectError(.unsupported) { try store.writeSync { try $0.nextIntegerID(ofType: "s") } }
            #expect(error?.message.contains("32767") == true)
        }
    }

    @Test("a read after a failed statement of the same block says the block must end, naming the first failure")
    func readAfterFailure() throws {
        try withPostgresStore(creatingWith: "CREATE TABLE t (id integer PRIMARY KEY, name text); INSERT INTO t VALUES (1, 'a');",
                              options: { $0.lockTimeout = .milliseconds(200) }) { store, schema throws in
            // Another session holds the table locked, so the first read of the block times out.
            let holder = try TestServer.connect()
            defer { holder.close() }
            try holder.executeScript("BEGIN; LOCK TABLE \(schema).t IN ACCESS EXCLUSIVE MODE;")
            try store.read { accessor in
                expectError(.locked) { try accessor.items(forRequest: DataStoreRequest(itemType: "t")) }
                let next = expectError(.misuse) { try accessor.countItems(forRequest: DataStoreRequest(itemType: "t")) }
                #expect(next?.message.contains("an earlier statement of this block failed") == true)
            }
            try holder.executeScript("ROLLBACK;")
            #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "t")) } == 1)
        }
    }

    @Test("an index over an adopted json or jsonb column is refused as unsupported, and nothing is declared")
    func indexesOnJSON() throws {
        try withPostgresStore(creatingWith: "CREATE TABLE j (id integer PRIMARY KEY, doc json, docb jsonb, n integer);") { store, _ throws in
            for attribute in ["doc", "docb"] {
                for unique in [false, true] {
                    let error = expectError(.unsupported) {
                        try store.writeSync { accessor in try accessor.ensureIndex(ofType: "j", on: ["n", attribute], unique: unique) }
                    }
                    #expect(error?.message.contains(attribute) == true)
                }
            }
            #expect(try store.indexes(ofType: "j").isEmpty)
            // Items whose jsonb values Persist tells apart are both stored.
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "j", id: 1, attributes: ["docb": [1]]))
                try accessor.insert(Item(itemType: "j", id: 2, attributes: ["docb": [1.0]]))
            }
            #expect(try allItems(store, "j").count == 2)
        }
    }

    @Test("a save of a row read as nearby values writes them back; updateItems leaves the exact values as they are")
    func nearbyValues() throws {
        let sql = """
            CREATE TABLE acct (id integer PRIMARY KEY, name text, balance numeric, at timestamp);
            INSERT INTO acct VALUES (1, 'a', 12345678901234567890.5, '9000-01-01 00:00:00.000001');
            """
        try withPostgresStore(creatingWith: sql) { store, schema in
            let connection = try TestServer.connect()
            defer { connection.close() }
            let stored = { try connection.executeScript("SELECT balance::text, at::text FROM \(schema).acct") }
            var request = DataStoreRequest(itemType: "acct")
            request.filter = .attribute("name") == "a"
            #expect(try store.writeSync { try $0.updateItems(forRequest: request, setting: ["name": "b"]) } == 1)
            #expect(try stored().text(0, 0) == "12345678901234567890.5")
            #expect(try stored().text(0, 1) == "9000-01-01 00:00:00.000001")
            var item = try #require(try store.read { try $0.item(ofType: "acct", id: 1) })
            item["name"] = "c"
            try store.writeSync { try $0.save(item) }
            // The numeric reads as an exact decimal, which the save writes back unchanged.
            #expect(try stored().text(0, 0) == "12345678901234567890.5")
            #expect(try stored().text(0, 1) == "9000-01-01 00:00:00")
        }
    }
}
