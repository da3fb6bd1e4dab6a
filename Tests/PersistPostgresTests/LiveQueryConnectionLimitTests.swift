import CLibPQ
import Foundation
import Persist
import PersistConformance
import PersistPostgres
import PersistTestSupport
import Testing

/// Live queries whose sessions are lost while the server has no slot for a new one.
@Suite("PostgreSQL live queries when the server has no connection slot left")
struct LiveQueryConnectionLimitTests {
    /// A store of a role of its own (whose connection limit a test lowers) on a fresh schema,
    /// holding note 1 and observing the notes, with the store's log lines.
    static func withLimitedRole(
        _ body: (_ store: PostgresDataStore, _ recorder: ObservationRecorder<[Item]>, _ lines: Locked<[String]>,
                 _ admin: PGConnection, _ role: String, _ schema: String) async throws -> Void
    ) async throws {
        let schema = TestStores.newSchemaName()
        let role = "persist_limited_" + schema.suffix(24)
        let admin = try TestServer.connect()
        defer { admin.close() }
        try admin.executeScript("CREATE ROLE \(role) LOGIN; CREATE SCHEMA \(schema) AUTHORIZATION \(role)")
        defer { _ = try? admin.executeScript("DROP SCHEMA IF EXISTS \(schema) CASCADE; DROP ROLE IF EXISTS \(role)") }
        let lines = Locked<[String]>([])
        // The store waits for a slot up to its connect timeout, then ends the live queries: long
        // enough that a test kept from running for a while by the others never sees that.
        var options = LiveQueryOutageTests.options(lines, connectTimeout: .seconds(900))
        options.schema = schema
        let store = PostgresDataStore(url: try TestServer.url(user: role), options: options)
        try store.setup()
        defer { try? store.tearDown() }
        try store.writeSync { try $0.insert(LiveQueryOutageTests.note(1)) }
        let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Note")))
        try await recorder.waitFor { $0.last?.map(\.id) == [1] }
        try await LiveQueryOutageTests.wait("the store to listen") { (try? listener(of: role, admin)) != nil }
        try await body(store, recorder, lines, admin, role, schema)
        await recorder.cancel()
    }

    /// The session of `role` listening for commits.
    static func listener(of role: String, _ admin: PGConnection) throws -> Int64? {
        let result = try admin.execute("SELECT pid::int8 FROM pg_catalog.pg_stat_activity WHERE usename = $1 "
                                       + "AND query LIKE 'LISTEN %'", [.text(role)])
        return result.rowCount == 1 ? try result.int64(0, 0) : nil
    }

    /// Commits note `id` through a store of the server's own role, which the limit does not bind.
    static func commitElsewhere(_ id: Int64, schema: String) throws {
        let other = PostgresDataStore(url: try TestServer.url(), options: TestStores.quietOptions { $0.schema = schema })
        try other.setup()
        defer { try? other.tearDown() }
        try other.writeSync { try $0.insert(LiveQueryOutageTests.note(id)) }
    }

    @Test("a lost listener that finds no free slot is tried again; once one frees, commits reach the live query again")
    func listenerWaitsForSlot() async throws {
        try await Self.withLimitedRole { _, recorder, lines, admin, role, schema in
            let sessions = try admin.execute("SELECT count(*) FROM pg_catalog.pg_stat_activity WHERE usename = $1",
                                             [.text(role)]).int64(0, 0) ?? 0
            // No slot for a new listening session once the current one is gone.
            try admin.executeScript("ALTER ROLE \(role) CONNECTION LIMIT \(sessions - 1)")
            let before = lines.withLock { $0.count }
            try TestServer.terminate(try #require(try Self.listener(of: role, admin)))
            try await LiveQueryOutageTests.wait("a refused attempt to listen again, or the query's end") {
                recorder.ended || lines.withLock { $0[before...].contains { $0.contains("cannot be reached yet") } }
            }
            let logged = lines.withLock { $0.suffix(20).joined(separator: "\n") }
            try #require(!recorder.ended, "the live query ended: \(String(describing: recorder.error)); the store logged \(logged)")

            try admin.executeScript("ALTER ROLE \(role) CONNECTION LIMIT -1")
            try await LiveQueryOutageTests.wait("the store to listen again") { (try? Self.listener(of: role, admin)) != nil }
            try Self.commitElsewhere(2, schema: schema)
            try await recorder.waitFor { $0.last?.map(\.id) == [1, 2] }
            #expect(!recorder.ended)
        }
    }

    @Test("a refresh whose reader is lost and finds no free slot for another runs again, and the live query goes on")
    func refreshWaitsForSlot() async throws {
        try await Self.withLimitedRole { store, recorder, lines, admin, role, schema in
            let writer = try store.withRawHandle { Int64(PQbackendPID($0)) }
            let listener = try #require(try Self.listener(of: role, admin))
            // The idle reader of the first query, gone, and no slot for another: the writer and the listener fill them.
            let reader = try admin.execute("SELECT pid::int8 FROM pg_catalog.pg_stat_activity WHERE usename = $1 "
                                           + "AND pid <> $2::int4 AND pid <> $3::int4", [.text(role), .int8(writer), .int8(listener)])
            try #require(reader.rowCount == 1, "the store's sessions besides its writer and listener: \(reader.rowCount)")
            try admin.executeScript("ALTER ROLE \(role) CONNECTION LIMIT 2")
            try TestServer.terminate(try reader.int64(0, 0) ?? 0)
            let before = lines.withLock { $0.count }
            try Self.commitElsewhere(2, schema: schema)
            try await LiveQueryOutageTests.wait("a refresh that could not run, or the query's end") {
                recorder.ended || lines.withLock { $0[before...].contains { $0.contains("runs its query again") } }
            }
            let logged = lines.withLock { $0.suffix(20).joined(separator: "\n") }
            try #require(!recorder.ended, "the live query ended: \(String(describing: recorder.error)); the store logged \(logged)")
            try admin.executeScript("ALTER ROLE \(role) CONNECTION LIMIT -1")
            try await recorder.waitFor { $0.last?.map(\.id) == [1, 2] }
            #expect(!recorder.ended)
        }
    }
}
