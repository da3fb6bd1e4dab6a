import Foundation
import Logging
import Persist
import PersistConformance
import PersistPostgres
import PersistTestSupport
import Testing

/// Live queries when the server goes away: a restart or a terminated listening session is
/// survived, a server that stays away past the connect timeout ends them with the error.
@Suite("PostgreSQL live queries across server restarts and outages")
struct LiveQueryOutageTests {
    static func note(_ id: Int64) -> Item {
        Item(itemType: "Note", id: .int(id))
    }

    /// Options polling often, logging to `lines` at debug level.
    static func options(_ lines: Locked<[String]>, connectTimeout: Duration) -> PostgresDataStore.Options {
        let handler = RecordingLogHandler(lines: lines)
        var logger = Logger(label: "persist.postgres.live-outage") { _ in handler }
        logger.logLevel = .debug
        return PostgresDataStore.Options(readerConnections: 1, connectTimeout: connectTimeout, logger: logger,
                                         changePollInterval: .milliseconds(20))
    }

    /// Waits until `condition` holds, for at most a minute.
    static func wait(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            guard Date() < deadline else {
                Issue.record("waited a minute for \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until a session of `cluster` listens for notifications: the store's live queries watch.
    static func waitForListener(_ cluster: PostgresCluster) async throws {
        let admin = try TestServer.connect(try PostgresURL(cluster.url))
        defer { admin.close() }
        try await wait("the store to listen") {
            let listening = try? admin.execute("SELECT count(*) FROM pg_catalog.pg_stat_activity WHERE query LIKE 'LISTEN %'")
            return (try? listening?.int64(0, 0)) == 1
        }
    }

    /// Runs `body` with a server of the test's own, holding one note, and a live query of the notes
    /// whose store listens for other stores' commits; the store's debug log goes to the lines given.
    static func withObservedStore(
        connectTimeout: Duration,
        _ body: (PostgresCluster, ObservationRecorder<[Item]>, Locked<[String]>) async throws -> Void
    ) async throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.stop() }
        let lines = Locked<[String]>([])
        let store = PostgresDataStore(url: cluster.url, options: options(lines, connectTimeout: connectTimeout))
        try store.setup()
        defer { try? store.tearDown() }
        try store.writeSync { try $0.insert(note(1)) }
        let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Note")))
        try await recorder.waitFor { $0.last?.map(\.id) == [1] }
        try await waitForListener(cluster)
        try await body(cluster, recorder, lines)
        await recorder.cancel()
    }

    @Test("a live query outlives a server restart: commits made through another store after it still reach it")
    func restart() async throws {
        try await Self.withObservedStore(connectTimeout: .seconds(60)) { cluster, recorder, lines in
            let before = lines.withLock { $0.count }
            try cluster.stopImmediately()
            // A poll while the server is down: the listener's loss is found, and reconnecting fails.
            try await Self.wait("a poll while the server is down, or the query's end") {
                recorder.ended || lines.withLock { $0[before...].contains { $0.contains("cannot be reached yet") } }
            }
            try #require(!recorder.ended, "the live query ended: \(String(describing: recorder.error))")
            try cluster.startAgain()

            let other = PostgresDataStore(url: cluster.url, options: TestStores.quietOptions())
            try other.setup()
            defer { try? other.tearDown() }
            try other.writeSync { try $0.insert(Self.note(2)) }
            try await recorder.waitFor { $0.last?.map(\.id) == [1, 2] }
            #expect(!recorder.ended)
        }
    }

    @Test("a server that stays away past the connect timeout ends live queries with an error naming it")
    func serverStaysAway() async throws {
        // Long enough for the store's first connections on a busy machine (0.3 s was not, once),
        // short enough that the live query ends well within the recorder's minute.
        try await Self.withObservedStore(connectTimeout: .seconds(3)) { cluster, recorder, _ in
            try cluster.stopImmediately()
            try await recorder.waitForEnd()
            let error = recorder.error as? DataStoreError
            #expect(error?.code == .io, "\(String(describing: recorder.error))")
            #expect(error?.message.contains("127.0.0.1:\(cluster.port)") == true, "\(String(describing: error))")
        }
    }
}
