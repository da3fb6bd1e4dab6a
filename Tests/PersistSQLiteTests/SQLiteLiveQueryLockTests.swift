import Foundation
import Logging
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

@Suite("SQLite live queries outlast another connection's lock")
struct SQLiteLiveQueryLockTests {
    static func ids(_ items: [Item]?) -> [ItemID]? { items?.map(\.id) }

    /// Another program's database, in rollback-journal mode, which a read-only store leaves as it
    /// is, holding one note; the store gives up on a lock at once and logs to the lines given.
    static func withLegacyDatabase(
        _ body: (SQLiteDataStore, RawDatabase, Locked<[String]>) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("legacy.sqlite")
        let legacy = try RawDatabase(path)
        defer { legacy.close() }
        try legacy.exec("CREATE TABLE \"Note\" (persist_id TEXT PRIMARY KEY, v INTEGER); INSERT INTO \"Note\" VALUES ('a', 1)")
        let lines = Locked<[String]>([])
        let store = SQLiteDataStore(path: path, options: quietOptions {
            $0.readOnly = true
            $0.busyTimeout = .zero
            $0.changePollInterval = .milliseconds(10)
            $0.logger = Logger(label: "test") { _ in RecordingLogHandler(lines: lines) }
        })
        try store.setup()
        defer { try? store.tearDown() }
        try await body(store, legacy, lines)
    }

    /// Waits until the store logged a line containing `text`, or the live query ended.
    static func waitForLog(_ text: String, in lines: Locked<[String]>, _ recorder: ObservationRecorder<[Item]>) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !recorder.ended, !lines.value.contains(where: { $0.contains(text) }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("a live query on a rollback-journal file outlasts a lock held past the busy timeout, and sees the commit")
    func lockedPoll() async throws {
        try await Self.withLegacyDatabase { store, legacy, lines in
            let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Note")))
            try await recorder.waitFor { $0.count == 1 }
            // Once a commit of the program was seen, the store watches and runs no query.
            try legacy.exec("INSERT INTO \"Note\" VALUES ('b', 2)")
            try await recorder.waitFor { Self.ids($0.last) == ["a", "b"] }
            // The program writes again, holding the file locked until a poll of the store found it so.
            try legacy.exec("BEGIN EXCLUSIVE; INSERT INTO \"Note\" VALUES ('c', 3)")
            try await Self.waitForLog("holds the database locked", in: lines, recorder)
            try legacy.exec("COMMIT")
            try #require(!recorder.ended, "the live query ended: \(String(describing: recorder.error))")
            try await recorder.waitFor { Self.ids($0.last) == ["a", "b", "c"] }
            #expect(recorder.error == nil)
            await recorder.cancel()
        }
    }

    @Test("a live query whose query meets another program's lock past the busy timeout waits for it instead of ending")
    func lockedFetch() async throws {
        try await Self.withLegacyDatabase { store, legacy, lines in
            // The program holds the file locked while the live query runs its first query.
            try legacy.exec("BEGIN EXCLUSIVE; INSERT INTO \"Note\" VALUES ('b', 2)")
            let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Note")))
            try await Self.waitForLog("runs its query again", in: lines, recorder)
            try legacy.exec("COMMIT")
            try #require(!recorder.ended, "the live query ended: \(String(describing: recorder.error))")
            try await recorder.waitFor { Self.ids($0.last) == ["a", "b"] }
            #expect(recorder.results.count == 1, "no result before the lock was released")
            await recorder.cancel()
        }
    }
}
