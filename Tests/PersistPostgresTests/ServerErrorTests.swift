import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

@Suite("Server and connection failures become clear DataStoreErrors with the SQLSTATE")
struct ServerErrorTests {
    @Test("a refused port is io, naming host and port and how to start a server")
    func refused() throws {
        let url = try TestServer.url(port: 1)
        let error = expectError(.io) { try PGConnection.connect(to: url, options: TestServer.quietOptions()) }
        #expect(error?.message.contains("127.0.0.1:1") == true, "\(error as Any)")
        #expect(error?.message.contains("pg_ctl start") == true)
        #expect(error?.engineMessage?.hasPrefix("08001: ") == true)
        #expect(error?.engineCode == PostgresSQLState.unableToConnect.engineCode)
        #expect(error?.path == url.location)
    }

    @Test("a server that never answers is io after the connect timeout, not a hang")
    func connectTimeout() throws {
        let silent = try SilentServer()
        let url = try TestServer.url(port: silent.port)
        var options = TestServer.quietOptions()
        options.connectTimeout = .milliseconds(300)
        let start = ContinuousClock.now
        let error = expectError(.io) { try PGConnection.connect(to: url, options: options) }
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(290) && waited < .seconds(5), "\(waited)")
        #expect(error?.message.contains("0.3 seconds") == true, "\(error as Any)")
    }

    @Test("a wrong password is invalidArgument saying authentication failed for the user")
    func authenticationFailure() throws {
        let url = try TestServer.url(user: TestServer.passwordRole, password: "wrong-\(UUID().uuidString)")
        let error = expectError(.invalidArgument) { try PGConnection.connect(to: url, options: TestServer.quietOptions()) }
        #expect(error?.message.contains("Authentication failed for user \"persist_pw\"") == true, "\(error as Any)")
        #expect(error?.engineMessage?.hasPrefix("28P01: ") == true, "\(error as Any)")
        // No password at all, where one is required.
        let bare = try TestServer.url(user: TestServer.passwordRole)
        let missing = expectError(.invalidArgument) { try PGConnection.connect(to: bare, options: TestServer.quietOptions()) }
        #expect(missing?.message.contains("Authentication failed") == true, "\(missing as Any)")
    }

    @Test("a missing database is notFound naming it")
    func missingDatabase() throws {
        let url = try TestServer.url(database: "no_such_database_here")
        let error = expectError(.notFound) { try PGConnection.connect(to: url, options: TestServer.quietOptions()) }
        #expect(error?.message.contains("\"no_such_database_here\" does not exist") == true, "\(error as Any)")
        #expect(error?.engineCode == PostgresSQLState.invalidCatalogName.engineCode)
    }

    @Test("a statement timeout is io saying statement timeout; the connection stays usable")
    func statementTimeout() throws {
        try withTestSchema { connection, _ in
            try connection.executeScript("SET statement_timeout = '50ms'")
            let error = expectError(.io) { try connection.execute("SELECT pg_sleep(5)") }
            #expect(error?.message.contains("statement timeout") == true, "\(error as Any)")
            #expect(error?.engineCode == PostgresSQLState.queryCanceled.engineCode)
            #expect(!connection.isBroken)
            #expect(try connection.execute("SELECT 1").rowCount == 1)
        }
    }

    @Test("a unique violation is alreadyExists; a missing table notFound; a bad value typeMismatch")
    func statementErrors() throws {
        try withTestSchema { connection, _ in
            try connection.executeScript("CREATE TABLE t (id int8 PRIMARY KEY, n int4)")
            try connection.execute("INSERT INTO t VALUES ($1, 1)", [.int8(1)])
            let duplicate = expectError(.alreadyExists) { try connection.execute("INSERT INTO t VALUES ($1, 1)", [.int8(1)]) }
            #expect(duplicate?.engineMessage?.hasPrefix("23505: duplicate key value") == true, "\(duplicate as Any)")
            #expect(duplicate?.message.contains("Key (id)=(1) already exists") == true, "\(duplicate as Any)")
            expectError(.notFound) { try connection.execute("SELECT * FROM no_such_table") }
            expectError(.typeMismatch) { try connection.execute("INSERT INTO t VALUES (2, $1::int4)", [.int8(1 << 40)]) }
            let nul = expectError(.typeMismatch) { try connection.execute("SELECT $1", [.text("a\u{0}b")]) }
            #expect(nul?.engineMessage?.hasPrefix("22021") == true, "\(nul as Any)")
            expectError(.invalidArgument) { try connection.execute("INSERT INTO t VALUES (3, NULL), (NULL, 3)") }
            expectError(.invalidArgument) { try connection.execute("SELEKT") }
        }
    }

    @Test("a lock timeout is locked; a serialization failure is conflict")
    func lockingAndSerialization() throws {
        try withTestSchema { connection, schema in
            try connection.executeScript("CREATE TABLE t (id int8 PRIMARY KEY, v int8); INSERT INTO t VALUES (1, 0)")
            let other = try TestServer.connect()
            defer { other.close() }
            // Not in the script with BEGIN: that would make the SET part of the transaction, undone by ROLLBACK.
            try other.executeScript("SET search_path TO \(schema)")
            try other.executeScript("BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE")
            try connection.executeScript("SET lock_timeout = '50ms'")
            let locked = expectError(.locked) { try connection.execute("SELECT * FROM t") }
            #expect(locked?.engineCode == PostgresSQLState.lockNotAvailable.engineCode)
            try other.executeScript("ROLLBACK")

            try other.executeScript("BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT * FROM t")
            try connection.execute("UPDATE t SET v = 1 WHERE id = 1")
            let conflict = expectError(.conflict) { try other.execute("UPDATE t SET v = 2 WHERE id = 1") }
            #expect(conflict?.engineCode == PostgresSQLState.serializationFailure.engineCode)
            try other.executeScript("ROLLBACK")
        }
    }
}
