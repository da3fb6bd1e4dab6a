import Foundation
import Persist
import PersistConformance
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
        let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Current")))
        // Each result is one whole block: three items carrying one sequence number.
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
