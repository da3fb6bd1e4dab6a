import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

@Suite("PGConnection connects, reports its state, and reconnects after losing its session")
struct ConnectionTests {
    @Test("connects with application_name persist and UTF8, and knows the server's version")
    func connect() throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        #expect(connection.serverVersion >= PGConnection.minimumServerVersion)
        #expect(connection.parameterStatus("application_name") == "persist")
        #expect(connection.parameterStatus("client_encoding") == "UTF8")
        #expect(connection.parameterStatus("standard_conforming_strings") == "on")
        #expect(!connection.isBroken)
        #expect(connection.transactionStatus == .idle)
        let result = try connection.execute("SELECT current_setting('application_name'), current_database()")
        #expect(try result.text(0, 0) == "persist")
        #expect(try result.text(0, 1) == TestServer.url().database)
    }

    @Test("transaction status follows BEGIN, a failed statement, and ROLLBACK")
    func transactionStatus() throws {
        try withTestSchema { connection, _ in
            try connection.executeScript("BEGIN")
            #expect(connection.transactionStatus == .inTransaction)
            expectError(.invalidArgument) { try connection.execute("SELEC 1") }
            #expect(connection.transactionStatus == .inFailedTransaction)
            let error = expectError(.misuse) { try connection.execute("SELECT 1") }
            #expect(error?.engineMessage?.hasPrefix("25P02: ") == true)
            try connection.executeScript("ROLLBACK")
            #expect(connection.transactionStatus == .idle)
        }
    }

    @Test("logs in with a password over scram-sha-256")
    func passwordLogin() throws {
        let url = try TestServer.url(user: TestServer.passwordRole, password: TestServer.passwordRolePassword)
        let connection = try TestServer.connect(url)
        defer { connection.close() }
        #expect(try connection.execute("SELECT current_user").text(0, 0) == TestServer.passwordRole)
    }

    @Test("a terminated session is an io error saying connection lost; reconnect gives a working session")
    func terminatedAndReconnected() throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        try connection.executePrepared("SELECT $1::int8 + 1", [.int8(1)])
        #expect(connection.preparedStatementCount == 1)
        let pid = try #require(try connection.execute("SELECT pg_backend_pid()").int64(0, 0))
        try TestServer.terminate(pid)

        let error = expectError(.io) { try connection.execute("SELECT 1") }
        #expect(error?.message.contains("connection lost") == true, "\(error as Any)")
        #expect(error?.path == (try TestServer.url()).location)
        #expect(connection.isBroken)
        #expect(connection.transactionStatus == .unknown)
        // Still broken, still a clear error, never a crash.
        expectError(.io) { try connection.executePrepared("SELECT $1::int8 + 1", [.int8(1)]) }

        try connection.reconnect()
        #expect(!connection.isBroken)
        #expect(connection.preparedStatementCount == 0)
        #expect(try connection.executePrepared("SELECT $1::int8 + 1", [.int8(1)]).int64(0, 0) == 2)
        #expect(try connection.execute("SELECT pg_backend_pid()").int64(0, 0) != pid)
    }

    @Test("a reconnect that fails leaves the connection broken, with io errors, and it can try again")
    func failedReconnect() throws {
        let database = "persist_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = try TestServer.connect()
        defer { admin.close() }
        try admin.executeScript("CREATE DATABASE \(database)")
        defer { _ = try? admin.executeScript("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        let connection = try TestServer.connect(TestServer.url(database: database))
        defer { connection.close() }
        try admin.executeScript("DROP DATABASE \(database) WITH (FORCE)")

        let lost = expectError(.io) { try connection.execute("SELECT 1") }
        #expect(lost?.message.contains("connection lost") == true, "\(lost as Any)")
        let gone = expectError(.notFound) { try connection.reconnect() }
        #expect(gone?.message.contains("\"\(database)\" does not exist") == true, "\(gone as Any)")
        #expect(connection.isBroken && !connection.isClosed)
        let broken = expectError(.io) { try connection.execute("SELECT 1") }
        #expect(broken?.message.contains("reconnect failed") == true, "\(broken as Any)")

        try admin.executeScript("CREATE DATABASE \(database)")
        try connection.reconnect()
        #expect(try connection.execute("SELECT current_database()").text(0, 0) == database)
    }

    @Test("a COPY started by execute is ended unused: misuse, and the session goes on")
    func copyThroughExecute() throws {
        try withTestSchema { connection, _ in
            try connection.executeScript("CREATE TABLE t (n int8)")
            expectError(.misuse) { try connection.execute("COPY t FROM STDIN") }
            expectError(.misuse) { try connection.executeScript("COPY (SELECT generate_series(1, 10000)) TO STDOUT") }
            expectError(.misuse) { try connection.executePrepared("COPY t TO STDOUT") }
            #expect(try connection.execute("SELECT count(*) FROM t").int64(0, 0) == 0)
            #expect(connection.transactionStatus == .idle)
        }
    }

    @Test("a closed connection is a misuse error, and closing twice is harmless")
    func closed() throws {
        let connection = try TestServer.connect()
        connection.close()
        connection.close()
        #expect(connection.isClosed && connection.isBroken)
        let error = expectError(.misuse) { try connection.execute("SELECT 1") }
        #expect(error?.message.contains("closed") == true)
        expectError(.misuse) { try connection.pollNotifications() }
        expectError(.misuse) { try connection.reconnect() }
    }
}
