import Foundation
import Persist
import PersistConformance
import PersistPostgres
import PersistSQLite
import PersistTestSupport
import Testing

@Suite("Live queries across processes")
struct LiveQueryProcessTests {
    @Test("a live query on SQLite sees the write blocks another process commits through Persist")
    func otherProcess() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("shared.sqlite")
        let worker = try ChildProcess(["blocks", "sqlite", path, "normal", "3"])
        defer { worker.kill() }
        #expect(worker.waitForLines(1))
        let store = SQLiteDataStore(path: path, options: .init(busyTimeout: .seconds(10), logger: StoreFiles.quiet))
        try store.setup()
        defer { try? store.tearDown() }
        try await Self.expectWholeBlocks(store, from: worker)
    }

    @Test("a live query on PostgreSQL sees the write blocks another process commits through Persist (LISTEN/NOTIFY)")
    func otherProcessOnServer() async throws {
        let base = try CrashTests.PostgresWriteBlocks.serverURL()
        let schema = "persist_live_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        let quiet = CrashTests.PostgresWriteBlocks.quiet
        defer { try? PostgresDataStore.dropSchema(String(schema), at: PostgresURL(base), options: quiet) }
        let url = "\(base)?schema=\(schema)"
        let worker = try ChildProcess(["blocks", "postgres", url, "normal", "3"])
        defer { worker.kill() }
        #expect(worker.waitForLines(1))
        let store = PostgresDataStore(url: url, options: quiet)
        try store.setup()
        defer { try? store.tearDown() }
        try await Self.expectWholeBlocks(store, from: worker)
    }

    /// Observes the `Current` items the worker's blocks replace, until results of three blocks
    /// have arrived; each result must be one whole block: three items carrying one sequence number.
    static func expectWholeBlocks(_ store: any DataStore, from worker: ChildProcess) async throws {
        let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Current")))
        do {
            try await recorder.waitFor { results in
                Set(results.compactMap { $0.first?["seq"] }).count >= 3
            }
        } catch {
            Issue.record("\(error); the stream \(recorder.ended ? "ended with \(String(describing: recorder.error))" : "is open"); the worker committed \(worker.lines.count) blocks, results: \(recorder.results.map { $0.first?["seq"] as Value? })")
            throw error
        }
        await recorder.cancel()
        for items in recorder.results {
            #expect(items.count == 3 && Set(items.map { $0["seq"] }).count == 1, "a result shows part of a block: \(items)")
        }
    }
}
