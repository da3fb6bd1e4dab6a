import CLibPQ
import Foundation
import Logging
import Persist
import PersistConformance
import PersistPostgres
import PersistTestSupport
import Testing

/// Faults give a clear `DataStoreError`, never a crash or a hang, and the store recovers.
@Suite("PostgresDataStore reports faults clearly and recovers")
struct StoreFaultTests {
    /// A loopback port nothing listens on.
    static func closedPort() throws -> Int {
        let server = try SilentServer()
        return server.port   // closed again when `server` goes
    }

    @Test("a server that is down at setup gives an error naming host and port")
    func downAtSetup() throws {
        let port = try Self.closedPort()
        let store = PostgresDataStore(url: "postgresql://postgres@127.0.0.1:\(port)/persist", options: TestStores.quietOptions())
        let error = expectError(.io) { try store.setup() }
        #expect(error?.message.contains("127.0.0.1:\(port)") == true, "\(String(describing: error))")
        expectError(.misuse) { try store.read { _ in 1 } }
    }

    @Test("a wrong password says the authentication failed, and never shows the password")
    func authentication() throws {
        let url = try TestServer.url(user: TestServer.passwordRole, password: "not-the-password")
        let store = PostgresDataStore(url: url, options: TestStores.quietOptions())
        let error = expectError(.invalidArgument) { try store.setup() }
        #expect(error?.message.contains("Authentication failed") == true)
        #expect(String(describing: error as Any).contains("not-the-password") == false)
        #expect(!store.location.contains("not-the-password"))
    }

    @Test("a missing database says which database")
    func missingDatabase() throws {
        let url = try TestServer.url(database: "no_such_database")
        let error = expectError(.notFound) { try PostgresDataStore(url: url, options: TestStores.quietOptions()).setup() }
        #expect(error?.message.contains("\"no_such_database\" does not exist") == true)
    }

    @Test("a malformed URL is invalidArgument naming the bad part, and the password stays out of it",
          arguments: [("postgresql://app:s3cret@host:port/db", "port"), ("mysql://app:s3cret@host/db", "scheme"),
                      ("postgresql://app:s3cret@host:5432", "database name"),
                      ("postgresql://app:s3cret@host/db?color=red", "color")])
    func malformedURL(_ text: String, _ part: String) throws {
        let store = PostgresDataStore(url: text, options: TestStores.quietOptions())
        #expect(store.url == nil)
        let error = expectError(.invalidArgument) { try store.setup() }
        #expect(error?.message.contains(part) == true, "\(String(describing: error))")
        #expect(!String(describing: error as Any).contains("s3cret"))
        #expect(!store.location.contains("s3cret"))
    }

    @Test("options out of range are invalidArgument at setup")
    func badOptions() throws {
        let url = try TestServer.url()
        for configure in [{ (options: inout PostgresDataStore.Options) in options.readerConnections = -1 },
                          { $0.lockTimeout = .zero }, { $0.statementTimeout = .seconds(-1) }, { $0.schema = "" }] {
            expectError(.invalidArgument) { try PostgresDataStore(url: url, options: TestStores.quietOptions(configure)).setup() }
        }
    }

    @Test("a statement that runs past the statement timeout fails with an error that says so, and the block rolls back")
    func statementTimeout() throws {
        let sql = """
            CREATE TABLE slow (id integer PRIMARY KEY);
            CREATE FUNCTION slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(5); RETURN NEW; END $$;
            CREATE TRIGGER slow BEFORE INSERT ON slow FOR EACH ROW EXECUTE FUNCTION slow_insert();
            """
        try withPostgresStore(creatingWith: sql, options: { $0.statementTimeout = .milliseconds(200) }) { store, _ in
            let error = expectError(.io) {
                try store.writeSync { accessor in
                    try accessor.insert(Item(itemType: "fast", id: 1))
                    try accessor.insert(Item(itemType: "slow", id: 1))
                }
            }
            #expect(error?.message.contains("statement timeout") == true, "\(String(describing: error))")
            #expect(try allItems(store, "fast").isEmpty)
            try seed(store, [Item(itemType: "fast", id: 2)])
        }
    }

    @Test("a table another transaction locks makes a block fail with locked after the lock timeout")
    func lockTimeout() throws {
        try withPostgresStore(options: { $0.lockTimeout = .milliseconds(200) }) { store, schema in
            try seed(store, [Item(itemType: "Note", id: 1)])
            let other = try TestServer.connect()
            defer { other.close() }
            try other.executeScript("BEGIN; LOCK TABLE \(schema).\"Note\" IN ACCESS EXCLUSIVE MODE")
            expectError(.locked) { try allItems(store, "Note") }
            expectError(.locked) { try store.writeSync { try $0.insert(Item(itemType: "Note", id: 2)) } }
            try other.executeScript("ROLLBACK")
            #expect(try allItems(store, "Note").count == 1)
        }
    }

    @Test("a write waits for another process holding the schema's write lock, up to the lock timeout")
    func writeLockHeldElsewhere() throws {
        try withPostgresStore(options: { $0.lockTimeout = .milliseconds(300) }) { store, _ in
            let other = try TestServer.connect()
            defer { other.close() }
            try other.execute("BEGIN")
            try other.execute("SELECT pg_advisory_xact_lock($1)", [.int8(store.writeLockKey)])
            let error = expectError(.locked) { try store.writeSync { try $0.insert(Item(itemType: "Note", id: 1)) } }
            #expect(error?.message.contains("lock") == true)
            // Reads never wait for it.
            #expect(try allItems(store, "Note").isEmpty)
            try other.execute("ROLLBACK")
            try seed(store, [Item(itemType: "Note", id: 1)])
        }
    }

    @Test("a session the server ended between blocks is replaced by the next block")
    func terminatedSession() throws {
        try withPostgresStore { store, _ in
            try seed(store, [Item(itemType: "Note", id: 1)])
            let pid = try store.withRawHandle { Int64(PQbackendPID($0)) }
            try TestServer.terminate(pid)
            try seed(store, [Item(itemType: "Note", id: 2)])
            #expect(try allItems(store, "Note").count == 2)
        }
    }

    @Test("a reader session the server ended in the middle of a read block is io with the server's reason; the next read reconnects")
    func readerEndedMidBlock() throws {
        try withPostgresStore { store, schema in
            try seed(store, [Item(itemType: "Note", id: 1)])
            let writer = try store.withRawHandle { Int64(PQbackendPID($0)) }
            let admin = try TestServer.connect()
            defer { admin.close() }
            // A limit makes it one statement, naming the table, rather than a cursor's FETCH.
            var request = DataStoreRequest(itemType: "Note")
            request.limit = 10
            let error = expectError(.io) {
                try store.read { accessor in
                    _ = try accessor.items(forRequest: request)
                    // The block's reader: the session other than the writer whose last statement read the table.
                    let reader = try admin.execute("""
                        SELECT pid::int8 FROM pg_catalog.pg_stat_activity WHERE pid <> pg_backend_pid() AND pid <> $1::int4 \
                        AND position($2 in query) > 0
                        """, [.int8(writer), .text(schema)])
                    #expect(reader.rowCount == 1)
                    // A read through a cursor, whose CLOSE waits to go out with the next statement.
                    _ = try accessor.items(forRequest: DataStoreRequest(itemType: "Note"))
                    try TestServer.terminate(try reader.int64(0, 0) ?? 0)
                    return try accessor.items(forRequest: request).count
                }
            }
            #expect(error?.message.contains("connection lost") == true, "\(String(describing: error))")
            #expect(error?.message.contains("terminating connection due to administrator command") == true,
                    "\(String(describing: error))")
            #expect(error?.engineMessage?.hasPrefix("57P01") == true, "\(String(describing: error))")
            #expect(error?.path == (try TestServer.url()).location)
            #expect(try allItems(store, "Note").count == 1)
        }
    }

    @Test("a session the server ended between blocks is replaced before the escape hatch hands it out")
    func terminatedSessionBeforeEscapeHatch() throws {
        try withPostgresStore { store, _ in
            try seed(store, [Item(itemType: "Note", id: 1)])
            let pid = try store.withRawHandle { Int64(PQbackendPID($0)) }
            try TestServer.terminate(pid)
            let count = try store.withRawHandle { connection -> String? in
                let result = PQexec(connection, "SELECT count(*) FROM \"Note\"")
                defer { PQclear(result) }
                return PQresultStatus(result) == PGRES_TUPLES_OK ? PQgetvalue(result, 0, 0).map { String(cString: $0) } : nil
            }
            #expect(count == "1")
        }
    }

    @Test("a connection lost while the escape hatch has it is io naming the server, not a transaction left open")
    func connectionLostInEscapeHatch() throws {
        try withPostgresStore { store, _ in
            try seed(store, [Item(itemType: "Note", id: 1)])
            let error = expectError(.io) {
                try store.withRawHandle { connection in
                    PQclear(PQexec(connection, "BEGIN; INSERT INTO \"Note\" (persist_id) VALUES (2)"))
                    PQclear(PQexec(connection, "SELECT pg_terminate_backend(pg_backend_pid())"))
                }
            }
            #expect(error?.message.contains("connection lost") == true, "\(String(describing: error))")
            #expect(error?.message.contains(try TestServer.url().location) == true, "\(String(describing: error))")
            try seed(store, [Item(itemType: "Note", id: 3)])
            #expect(try allItems(store, "Note").map(\.id) == [1, 3])
        }
    }

    @Test("a block that reconnects and then times out on the write lock leaves no transaction open for the next")
    func reconnectThenLockTimeout() throws {
        try withPostgresStore(options: { $0.lockTimeout = .milliseconds(300) }) { store, _ in
            try seed(store, [Item(itemType: "Note", id: 1)])
            let other = try TestServer.connect()
            defer { other.close() }
            try other.execute("BEGIN")
            try other.execute("SELECT pg_advisory_xact_lock($1)", [.int8(store.writeLockKey)])
            let pid = try store.withRawHandle { Int64(PQbackendPID($0)) }
            try TestServer.terminate(pid)
            expectError(.locked) { try store.writeSync { try $0.insert(Item(itemType: "Note", id: 2)) } }
            try other.execute("ROLLBACK")
            try seed(store, [Item(itemType: "Note", id: 3)])
            #expect(try allItems(store, "Note").map(\.id) == [1, 3])
        }
    }

    @Test("columns another session drops or renames are noticed by the next write, which adds them again",
          arguments: ["DROP COLUMN body", "RENAME COLUMN body TO text"])
    func columnsChangedElsewhere(change: String) throws {
        try withPostgresStore { store, schema in
            try seed(store, [Item(itemType: "Note", id: 1, attributes: ["body": "a"])])
            let other = try TestServer.connect()
            defer { other.close() }
            try other.executeScript("ALTER TABLE \(schema).\"Note\" \(change)")
            // A write only: no read reloads the schema first.
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: 2, attributes: ["body": "b"])) }
            let items = try allItems(store, "Note")
            #expect(items.map(\.id) == [1, 2])
            #expect(items.last?["body"] == "b")
        }
    }

    @Test("an isIn of more values than one statement takes is answered, counted, updated and deleted like any other")
    func hugeMembership() throws {
        try withPostgresStore { store, _ in
            try seed(store, (0..<20).map { Item(itemType: "Note", id: .int(Int64($0)), attributes: ["n": .int(Int64($0))]) })
            var request = DataStoreRequest(itemType: "Note")
            request.filter = .attribute("n").isIn((0..<70_000).map { .int(Int64($0 * 2)) })
            request.setSort(byKey: "n", ascending: false)
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == stride(from: 18, through: 0, by: -2).map { .int(Int64($0)) })
            #expect(try store.read { try $0.countItems(forRequest: request) } == 10)
            #expect(try store.writeSync { try $0.updateItems(forRequest: request, setting: ["even": true]) } == 10)
            #expect(try store.writeSync { try $0.deleteItems(forRequest: request) } == 10)
            #expect(try allItems(store, "Note").map(\.id) == stride(from: 1, to: 20, by: 2).map { .int(Int64($0)) })
        }
    }

    /// Runs `body` with a server of the test's own and a store on it holding one note.
    private func withClusterStore(_ body: (PostgresCluster, PostgresDataStore) throws -> Void) throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let store = PostgresDataStore(url: cluster.url, options: TestStores.quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        try seed(store, [Item(itemType: "Note", id: 1)])
        try body(cluster, store)
    }

    @Test("a server restarted between blocks: the next blocks reconnect and succeed")
    func restartBetweenBlocks() throws {
        try withClusterStore { cluster, store in
            #expect(try allItems(store, "Note").count == 1)
            try cluster.restart()
            try seed(store, [Item(itemType: "Note", id: 2)])
            #expect(try allItems(store, "Note").map(\.id) == [1, 2])
        }
    }

    @Test("a server killed during a write block: the block throws, nothing is half-applied, the store works once it is back")
    func killedDuringWrite() throws {
        try withClusterStore { cluster, store in
            let error = expectError(.io) {
                try store.writeSync { accessor in
                    try accessor.insert(Item(itemType: "Note", id: 2))
                    try cluster.stopImmediately()
                    try accessor.insert(Item(itemType: "Note", id: 3))
                }
            }
            #expect(error?.message.contains("127.0.0.1:\(cluster.port)") == true, "\(String(describing: error))")
            // While it is down, blocks fail at once with a clear error.
            let down = expectError(.io) { try allItems(store, "Note") }
            #expect(down?.message.contains("127.0.0.1:\(cluster.port)") == true, "\(String(describing: down))")
            try cluster.startAgain()
            #expect(try allItems(store, "Note").map(\.id) == [1])
            try seed(store, [Item(itemType: "Note", id: 4)])
            #expect(try allItems(store, "Note").map(\.id) == [1, 4])
        }
    }

    @Test("no password reaches a log line of the store")
    func logsWithoutPassword() throws {
        let lines = Locked<[String]>([])
        var options = TestStores.quietOptions()
        let handler = RecordingLogHandler(lines: lines)
        options.logger = Logger(label: "persist.postgres.store-leak") { _ in handler }
        let secret = "store-secret-\(UUID().uuidString)"
        let schema = TestStores.newSchemaName()
        defer { try? TestStores.drop(schema) }
        options.schema = schema
        let store = PostgresDataStore(url: try TestServer.url(password: secret), options: options)
        try store.setup()
        try seed(store, [Item(itemType: "Note", id: 1, attributes: ["text": "x"])])
        try store.tearDown()
        let logged = lines.withLock { $0 }
        #expect(!logged.isEmpty)
        for line in logged { #expect(!line.contains(secret), "log line: \(line)") }
        #expect(!store.location.contains(secret))
    }
}
