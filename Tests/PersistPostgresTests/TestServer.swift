import Foundation
import Logging
import Persist
import PersistPostgres
import Testing

/// The server the tests run against: `PERSIST_POSTGRES_URL`. Without it, or when it cannot be
/// reached, a test fails with a message that says how to start one; it is never skipped.
enum TestServer {
    static let howToStart = "start a throwaway server with `make postgres` and export the PERSIST_POSTGRES_URL "
        + "it prints, or run the tests with `scripts/postgres-cluster.sh run swift test --filter PersistPostgresTests`"

    /// The role the cluster script makes with a password, which must log in with scram-sha-256.
    static let passwordRole = "persist_pw"
    /// Its password (see scripts/postgres-cluster.sh).
    static let passwordRolePassword = "persist-pw"

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The server's URL from the environment.
    static func url() throws -> PostgresURL {
        guard let text = ProcessInfo.processInfo.environment["PERSIST_POSTGRES_URL"], !text.isEmpty else {
            throw Unavailable(description: "PERSIST_POSTGRES_URL is not set, so the PostgreSQL tests have no server: "
                + "\(howToStart).")
        }
        return try PostgresURL(text)
    }

    /// The server's URL with another user, password or database.
    static func url(user: String? = nil, password: String? = nil, database: String? = nil,
                    port: Int? = nil) throws -> PostgresURL {
        let base = try url()
        return try PostgresURL(host: base.host, port: port ?? base.port, user: user ?? base.user, password: password,
                               database: database ?? base.database, schema: base.schema)
    }

    /// A new connection to the server, with a logger that keeps quiet below warnings.
    static func connect(_ url: PostgresURL? = nil, options: PGConnection.Options = quietOptions()) throws -> PGConnection {
        let target = try url ?? Self.url()
        do {
            return try PGConnection.connect(to: target, options: options)
        } catch let error as DataStoreError where error.code == .io {
            throw Unavailable(description: "The PostgreSQL server at \(target.location) (PERSIST_POSTGRES_URL) "
                + "could not be reached: \(error). To run these tests, \(howToStart).")
        }
    }

    /// Terminates the session `pid` from another connection and waits until it is gone.
    static func terminate(_ pid: Int64) throws {
        let admin = try connect()
        defer { admin.close() }
        #expect(try admin.execute("SELECT pg_terminate_backend($1::int4)", [.int8(pid)]).bool(0, 0) == true)
        for _ in 0..<500 {
            let alive = try admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = $1::int4", [.int8(pid)])
            if try alive.int64(0, 0) == 0 { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
        Issue.record("session \(pid) was still there 5 seconds after pg_terminate_backend")
    }

    static func quietOptions(statementCacheCapacity: Int = 128) -> PGConnection.Options {
        var logger = Logger(label: "persist.postgres.tests")
        logger.logLevel = .warning
        return PGConnection.Options(statementCacheCapacity: statementCacheCapacity, logger: logger)
    }
}

/// Runs `body` with a connection whose `search_path` is a new schema of its own,
/// `persist_test_<uuid>`, which is dropped afterwards whatever happens.
func withTestSchema(options: PGConnection.Options = TestServer.quietOptions(),
                    _ body: (PGConnection, String) throws -> Void) throws {
    let connection = try TestServer.connect(options: options)
    defer { connection.close() }
    let schema = "persist_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    try connection.executeScript("CREATE SCHEMA \(schema); SET search_path TO \(schema)")
    defer { dropSchema(schema) }
    try body(connection, schema)
}

/// Drops a test's schema on a connection of its own, so that it goes even when the test broke its connection.
private func dropSchema(_ schema: String) {
    guard let connection = try? TestServer.connect() else { return }
    defer { connection.close() }
    _ = try? connection.executeScript("DROP SCHEMA IF EXISTS \(schema) CASCADE")
}
