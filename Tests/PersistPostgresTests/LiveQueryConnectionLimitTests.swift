import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// Live queries whose listening session is lost while the server has no slot for a new one.
@Suite("PostgreSQL live queries when the server has no connection slot left")
struct LiveQueryConnectionLimitTests {
    @Test("a lost listener that finds no free slot is tried again; once one frees, commits reach the live query again")
    func listenerWaitsForSlot() async throws {
        let schema = TestStores.newSchemaName()
        let role = "persist_limited_" + schema.suffix(24)
        let admin = try TestServer.connect()
        defer { admin.close() }
        try admin.executeScript("CREATE ROLE \(role) LOGIN; CREATE SCHEMA \(schema) AUTHORIZATION \(role)")
        defer { _ = try? admin.executeScript("DROP SCHEMA IF EXISTS \(schema) CASCADE; DROP ROLE IF EXISTS \(role)") }
        let url = try TestServer.url(user: role)
        let lines = Locked<[String]>([])
        var options = LiveQueryOutageTests.options(lines, connectTimeout: .seconds(60))
        options.schema = schema
        let store = PostgresDataStore(url: url, options: options)
        try store.setup()
        defer { try? store.tearDown() }
        try store.writeSync { try $0.insert(LiveQueryOutageTests.note(1)) }
        let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Note")))
        try await recorder.waitFor { $0.last?.map(\.id) == [1] }

        func listener() throws -> Int64? {
            let result = try admin.execute("SELECT pid::int8 FROM pg_catalog.pg_stat_activity WHERE usename = $1 "
                                           + "AND query LIKE 'LISTEN %'", [.text(role)])
            return result.rowCount == 1 ? try result.int64(0, 0) : nil
        }
        try await LiveQueryOutageTests.wait("the store to listen") { (try? listener()) != nil }
        let sessions = try admin.execute("SELECT count(*) FROM pg_catalog.pg_stat_activity WHERE usename = $1",
                                         [.text(role)]).int64(0, 0) ?? 0
        // No slot for a new listening session once the current one is gone.
        try admin.executeScript("ALTER ROLE \(role) CONNECTION LIMIT \(sessions - 1)")
        let before = lines.withLock { $0.count }
        try TestServer.terminate(try #require(try listener()))
        try await LiveQueryOutageTests.wait("a refused attempt to listen again, or the query's end") {
            recorder.ended || lines.withLock { $0[before...].contains { $0.contains("cannot be reached yet") } }
        }
        try #require(!recorder.ended, "the live query ended: \(String(describing: recorder.error))")

        try admin.executeScript("ALTER ROLE \(role) CONNECTION LIMIT -1")
        try await LiveQueryOutageTests.wait("the store to listen again") { (try? listener()) != nil }
        let other = PostgresDataStore(url: try TestServer.url(), options: TestStores.quietOptions { $0.schema = schema })
        try other.setup()
        defer { try? other.tearDown() }
        try other.writeSync { try $0.insert(LiveQueryOutageTests.note(2)) }
        try await recorder.waitFor { $0.last?.map(\.id) == [1, 2] }
        #expect(!recorder.ended)
        await recorder.cancel()
    }
}
