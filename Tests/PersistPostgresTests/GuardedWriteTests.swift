import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

@Suite("PostgreSQL writes to guarded tables in one statement, and a refused write leaves nothing behind")
struct GuardedWriteTests {
    /// A legacy table whose every INSERT or UPDATE statement adds one to `statements.n`.
    static let countedTodos = """
        CREATE TABLE statements (n integer NOT NULL);
        INSERT INTO statements VALUES (0);
        CREATE FUNCTION count_statement() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT
            AS $$ BEGIN UPDATE statements SET n = n + 1; RETURN NULL; END $$;
        CREATE TABLE todo (id integer PRIMARY KEY, title text, done boolean NOT NULL, rank integer);
        INSERT INTO todo SELECT g, 't' || g, g % 2 = 0, g % 7 FROM generate_series(1, 20) g;
        CREATE TRIGGER todo_statements AFTER INSERT OR UPDATE ON todo
            FOR EACH STATEMENT EXECUTE FUNCTION count_statement();
        """

    static func statementCount(_ schema: String) throws -> Int64? {
        let connection = try TestServer.connect()
        defer { connection.close() }
        return try connection.execute("SELECT n FROM \(schema).statements").int64(0, 0)
    }

    @Test("updateItems on an adopted table with a trigger is one UPDATE, with and without a window")
    func oneStatement() throws {
        try withPostgresStore(creatingWith: Self.countedTodos) { store, schema in
            var open = DataStoreRequest(itemType: "todo")
            open.filter = .attribute("done") == false
            let updated = try store.writeSync { accessor in
                try accessor.updateItems(forRequest: open, setting: ["done": true, "title": "x"])
            }
            #expect(updated == 10)
            #expect(try Self.statementCount(schema) == 1)
            var windowed = DataStoreRequest(itemType: "todo")
            windowed.setSort(byKey: "rank", ascending: false)
            windowed.limit = 3
            let ranked = try store.writeSync { accessor in
                try accessor.updateItems(forRequest: windowed, setting: ["rank": .null])
            }
            #expect(ranked == 3)
            #expect(try Self.statementCount(schema) == 2)
            let items = try allItems(store, "todo")
            let odd: [ItemID] = (1...10).map { .int(Int64($0 * 2 - 1)) }
            #expect(items.filter { $0["title"] == "x" }.map(\.id) == odd)
            #expect(items.allSatisfy { $0["done"] == true })
            #expect(items.filter { $0["rank"] == nil }.map(\.id) == [6, 13, 20])
        }
    }

    @Test("an update a trigger would alter changes no row, names the item, and the block goes on")
    func alteredByTrigger() throws {
        let sql = """
            CREATE TABLE note (id integer PRIMARY KEY, body text);
            INSERT INTO note VALUES (1, 'a'), (2, 'b');
            CREATE FUNCTION shout() RETURNS trigger LANGUAGE plpgsql
                AS $$ BEGIN NEW.body := upper(NEW.body); RETURN NEW; END $$;
            CREATE TRIGGER note_shout BEFORE UPDATE ON note FOR EACH ROW EXECUTE FUNCTION shout();
            """
        try withPostgresStore(creatingWith: sql) { store, schema in
            try store.writeSync { accessor in
                let error = expectError(.typeMismatch) {
                    try accessor.updateItems(forRequest: DataStoreRequest(itemType: "note"),
                                             setting: ["body": "quiet", "stars": 3])
                }
                #expect(error?.items == [ItemReference(itemType: "note", id: 1)])
                let message = error?.message ?? ""
                #expect(message.contains("\"QUIET\""))
                // Values the trigger keeps as they are still go through, in the same block.
                let loud = try accessor.updateItems(forRequest: DataStoreRequest(itemType: "note"), setting: ["body": "LOUD"])
                #expect(loud == 2)
                try accessor.insert(Item(itemType: "note", id: 3, attributes: ["body": "C"]))
            }
            #expect(try allItems(store, "note").map { $0["body"] } == ["LOUD", "LOUD", "C"])
            // The column added for "stars" went with the refused update.
            #expect(try Self.columnCount(schema, "note") == 2)
        }
    }

    @Test("a char(n) column that would pad the value refuses it; an identity column keeps its own value")
    func declaredTypes() throws {
        let sql = """
            CREATE TABLE ticket (id integer PRIMARY KEY, code char(3), seq bigint GENERATED ALWAYS AS IDENTITY, note text);
            INSERT INTO ticket (id, code, note) VALUES (1, 'abc', 'n'), (2, 'def', 'n');
            """
        try withPostgresStore(creatingWith: sql) { store, _ in
            expectError(.typeMismatch) {
                try store.writeSync { accessor in
                    try accessor.updateItems(forRequest: DataStoreRequest(itemType: "ticket"), setting: ["code": "ab"])
                }
            }
            #expect(try allItems(store, "ticket").map { $0["code"] } == ["abc", "def"])
            // PostgreSQL refuses any value in an UPDATE of a GENERATED ALWAYS column; the item path
            // accepts the value the column already has, as a save of the same item would.
            var first = DataStoreRequest(itemType: "ticket")
            first.filter = .attribute("code") == "abc"
            let seq = try #require(try allItems(store, "ticket").first?["seq"])
            #expect(try store.writeSync { accessor in
                try accessor.updateItems(forRequest: first, setting: ["seq": seq, "note": "kept"])
            } == 1)
            expectError(.typeMismatch) {
                try store.writeSync { accessor in
                    try accessor.updateItems(forRequest: first, setting: ["seq": 999])
                }
            }
            #expect(try allItems(store, "ticket").map { $0["note"] } == ["kept", "n"])
        }
    }

    @Test("an insert the table refuses takes away the column added for it, and the block goes on")
    func refusedInsertColumns() throws {
        let sql = "CREATE TABLE task (id integer PRIMARY KEY, title text NOT NULL);"
        try withPostgresStore(creatingWith: sql) { store, schema in
            try store.writeSync { accessor in
                let error = expectError(.invalidArgument) {
                    try accessor.insert(Item(itemType: "task", id: 1, attributes: ["stars": 3]))
                }
                #expect(error?.items == [ItemReference(itemType: "task", id: 1)])
                try accessor.insert(Item(itemType: "task", id: 2, attributes: ["title": "t"]))
            }
            #expect(try allItems(store, "task") == [Item(itemType: "task", id: 2, attributes: ["title": "t"])])
            #expect(try Self.columnCount(schema, "task") == 2)
            // A write the table accepts keeps the column it needed.
            try store.writeSync { accessor in
                try accessor.save(Item(itemType: "task", id: 2, attributes: ["title": "t", "stars": 3]))
            }
            #expect(try Self.columnCount(schema, "task") == 3)
        }
    }

    /// Adds a column to `schema.note` from another session, as a legacy program would.
    static func addStars(_ schema: String) throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        try connection.executeScript(
            "SET lock_timeout = '10s'; ALTER TABLE \(schema).note ADD COLUMN stars integer NOT NULL DEFAULT 5")
    }

    @Test("a write to a table another session altered after the schema was read is undone, written again against the new columns, and the block goes on")
    func alteredUnderTheWriter() throws {
        let sql = "CREATE TABLE note (id integer PRIMARY KEY, body text); INSERT INTO note VALUES (1, 'a');"
        try withPostgresStore(creatingWith: sql) { store, schema in
            #expect(try allItems(store, "note").count == 1)
            // The column arrives inside the block, after the writer read the schema and before it
            // touches the table.
            try store.writeSync { accessor in
                try Self.addStars(schema)
                try accessor.insert(Item(itemType: "note", id: 2, attributes: ["body": "b"]))
                try accessor.insert(Item(itemType: "note", id: 3, attributes: ["body": "c", "stars": 1]))
            }
            let items = try allItems(store, "note")
            #expect(items.map(\.id) == [1, 2, 3])
            #expect(items.map { $0["stars"] } == [5, 5, 1])
            #expect(items.map { $0["body"] } == ["a", "b", "c"])
        }
    }

    @Test("a statement prepared before another session altered its table is prepared again, and the write goes through")
    func preparedBeforeTheChange() throws {
        let sql = "CREATE TABLE note (id integer PRIMARY KEY, body text);"
        try withPostgresStore(creatingWith: sql) { store, schema in
            try store.writeSync { accessor in try accessor.insert(Item(itemType: "note", id: 1, attributes: ["body": "a"])) }
            try Self.addStars(schema)
            try store.writeSync { accessor in try accessor.insert(Item(itemType: "note", id: 2, attributes: ["body": "b"])) }
            try store.writeSync { accessor in try accessor.save(Item(itemType: "note", id: 3, attributes: ["body": "c"])) }
            try Self.addMood(schema)
            try store.writeSync { accessor in try accessor.save(Item(itemType: "note", id: 4, attributes: ["body": "d"])) }
            let items = try allItems(store, "note")
            #expect(items.map(\.id) == [1, 2, 3, 4])
            #expect(items.map { $0["stars"] } == [5, 5, 5, 5])
            #expect(items.map { $0["mood"] } == ["ok", "ok", "ok", "ok"])
        }
    }

    /// Adds another column to `schema.note` from another session.
    static func addMood(_ schema: String) throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        try connection.executeScript("SET lock_timeout = '1s'; ALTER TABLE \(schema).note ADD COLUMN mood text NOT NULL DEFAULT 'ok'")
    }

    static func columnCount(_ schema: String, _ table: String) throws -> Int64? {
        let connection = try TestServer.connect()
        defer { connection.close() }
        return try connection.execute(
            "SELECT count(*) FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2",
            [.text(schema), .text(table)]).int64(0, 0)
    }

    @Test("an update that runs out of its statement timeout fails with the timeout, not item by item")
    func timeoutIsNotRefusal() throws {
        let sql = """
            CREATE TABLE slow (id integer PRIMARY KEY, n integer);
            INSERT INTO slow SELECT g, 0 FROM generate_series(1, 8) g;
            CREATE FUNCTION nap() RETURNS trigger LANGUAGE plpgsql
                AS $$ BEGIN PERFORM pg_sleep(0.1); RETURN NEW; END $$;
            CREATE TRIGGER slow_nap BEFORE UPDATE ON slow FOR EACH ROW EXECUTE FUNCTION nap();
            """
        // Eight rows take 0.8 s in one UPDATE, one row 0.1 s: only the whole update times out.
        try withPostgresStore(creatingWith: sql, options: { $0.statementTimeout = .milliseconds(400) }) { store, _ in
            let error = expectError(.io) {
                try store.writeSync { accessor in
                    try accessor.updateItems(forRequest: DataStoreRequest(itemType: "slow"), setting: ["n": 1])
                }
            }
            let message = error?.message ?? ""
            #expect(message.contains("statement timeout"))
            let rows = try allItems(store, "slow")
            #expect(rows.count == 8 && rows.allSatisfy { $0["n"] == 0 })
        }
    }

    @Test("a request on a json column, which the store evaluates, updates and deletes by key lists of 1,000")
    func keyLists() throws {
        let sql = """
            CREATE TABLE statements (n integer NOT NULL);
            INSERT INTO statements VALUES (0);
            CREATE FUNCTION count_statement() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT
                AS $$ BEGIN UPDATE statements SET n = n + 1; RETURN NULL; END $$;
            CREATE TABLE doc (id integer PRIMARY KEY, body jsonb, n integer);
            INSERT INTO doc SELECT g, CASE WHEN g % 3 = 0 THEN '[1]'::jsonb ELSE '[2]'::jsonb END, 0
                FROM generate_series(1, 3600) g;
            CREATE TRIGGER doc_statements AFTER UPDATE OR DELETE ON doc
                FOR EACH STATEMENT EXECUTE FUNCTION count_statement();
            """
        try withPostgresStore(creatingWith: sql) { store, schema in
            var ones = DataStoreRequest(itemType: "doc")
            ones.filter = .attribute("body") == .array([1])
            let updated = try store.writeSync { accessor in try accessor.updateItems(forRequest: ones, setting: ["n": 1]) }
            #expect(updated == 1_200)
            #expect(try Self.statementCount(schema) == 2)
            var changed = DataStoreRequest(itemType: "doc")
            changed.filter = .attribute("n") == 1
            #expect(try store.read { accessor in try accessor.countItems(forRequest: changed) } == 1_200)
            let deleted = try store.writeSync { accessor in try accessor.deleteItems(forRequest: ones) }
            #expect(deleted == 1_200)
            #expect(try Self.statementCount(schema) == 4)
            let left = try allItems(store, "doc")
            #expect(left.count == 2_400 && left.allSatisfy { $0["n"] == 0 && $0["body"] == .array([2]) })
        }
    }
}
