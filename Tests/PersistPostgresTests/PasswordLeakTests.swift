import Foundation
import Logging
import Persist
import PersistConformance
import PersistPostgres
import Testing
import PersistTestSupport

@Suite("A password in the URL never appears in an error, a message, a location or a log line")
struct PasswordLeakTests {
    let secret = "Leak-Check-" + UUID().uuidString
    let lines = Locked<[String]>([])

    private var options: PGConnection.Options {
        let handler = RecordingLogHandler(lines: lines)
        return PGConnection.Options(logger: Logger(label: "persist.postgres.leak") { _ in handler })
    }

    private func expectNoSecret(_ error: DataStoreError?, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let texts = [String(describing: error as Any), String(reflecting: error as Any), error?.localizedDescription ?? "",
                     error?.path ?? "", error?.engineMessage ?? ""]
        for text in texts {
            #expect(!text.contains(secret), "\(what): \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test("every failure path, with a URL holding a password")
    func everyErrorPath() throws {
        let base = try TestServer.url()
        // Connecting: refused, timed out, wrong password, missing database.
        let refused = try TestServer.url(password: secret, port: 1)
        expectNoSecret(expectError(.io) { try PGConnection.connect(to: refused, options: options) }, "refused")
        let silent = try SilentServer()
        var quick = options
        quick.connectTimeout = .milliseconds(100)
        let hanging = try TestServer.url(password: secret, port: silent.port)
        expectNoSecret(expectError(.io) { try PGConnection.connect(to: hanging, options: quick) }, "timeout")
        let wrong = try TestServer.url(user: TestServer.passwordRole, password: secret)
        expectNoSecret(expectError(.invalidArgument) { try PGConnection.connect(to: wrong, options: options) }, "auth")
        let missing = try TestServer.url(password: secret, database: "missing_\(UUID().uuidString.prefix(8))")
        expectNoSecret(expectError(.notFound) { try PGConnection.connect(to: missing, options: options) }, "database")

        // Statements on a session opened with the password (the test server trusts the user).
        let url = try TestServer.url(password: secret)
        #expect(url.hasPassword && url.host == base.host)
        let connection = try PGConnection.connect(to: url, options: options)
        defer { connection.close() }
        expectNoSecret(expectError(.invalidArgument) { try connection.execute("SELEKT") }, "syntax")
        expectNoSecret(expectError(.notFound) { try connection.execute("SELECT * FROM missing_table") }, "table")
        try connection.executeScript("SET statement_timeout = '20ms'")
        expectNoSecret(expectError(.io) { try connection.execute("SELECT pg_sleep(2)") }, "timeout")
        try connection.executeScript("RESET statement_timeout")
        expectNoSecret(expectError(.typeMismatch) { try connection.execute("SELECT $1::int4", [.int8(1 << 40)]) }, "data")
        expectNoSecret(expectError(.misuse) { try connection.copyIn("SELECT 1", rows: [[PGValue]]()) }, "copy")
        expectNoSecret(expectError(.invalidArgument) { try connection.execute("SELECT \u{0}") }, "nul")
        try connection.executeScript("DO $$ BEGIN RAISE WARNING 'a warning for the log'; END $$")

        // Lost, then reconnected.
        let pid = try #require(try connection.execute("SELECT pg_backend_pid()").int64(0, 0))
        try TestServer.terminate(pid)
        expectNoSecret(expectError(.io) { try connection.execute("SELECT 1") }, "lost")
        expectNoSecret(expectError(.io) { try connection.pollNotifications() }, "lost while polling")
        try connection.reconnect()
        connection.close()
        expectNoSecret(expectError(.misuse) { try connection.execute("SELECT 1") }, "closed")

        for text in [url.description, url.redacted, url.location, String(reflecting: url)] {
            #expect(!text.contains(secret), "\(text)")
        }
        let logged = lines.withLock { $0 }
        #expect(logged.contains { $0.contains("a warning for the log") }, "the server's warning was logged")
        #expect(logged.contains { $0.contains("reconnecting") })
        for line in logged { #expect(!line.contains(secret), "log line: \(line)") }
    }
}
