import Foundation
import Persist
import PersistGDBM
import PersistTestSupport
import Testing

/// Live queries on the stores that have no test target of their own for it (the SQLite and
/// PostgreSQL suites run the same cycles) release what they hold when their consumer is cancelled.
@Suite("In-memory and GDBM live queries release what they hold")
struct ObservationCycleTests {
    @Test("10,000 observe and cancel cycles leave no thread, file descriptor or subscriber behind",
          arguments: ["memory", "memory child", "gdbm", "gdbm child"])
    func cycles(_ kind: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root: any EngineBackedDataStore = kind.hasPrefix("gdbm")
            ? GDBMDataStore(path: directory.path("store.db"))
            : InMemoryDataStore()
        try root.setup()
        defer { try? root.tearDown() }
        try root.writeSync { try $0.insert(Item(itemType: "Note", id: "a", attributes: ["v": 1])) }
        let store: any DataStore = kind.hasSuffix("child") ? try root.makeChildDataStore() : root
        try store.setup()
        let request = DataStoreRequest(itemType: "Note")
        for _ in 0..<200 { try await ObservationCycle.run(store, request) }
        let before = try ProcessResources.current()
        for _ in 0..<10_000 { try await ObservationCycle.run(store, request) }
        try root.flush()
        let grown = try ProcessResources.current().grew(from: before)
        #expect(grown == nil, "\(grown ?? "")")
        #expect(root.scheduler.observations.subscriberCount == 0)
        #expect(store.writeScheduler?.observations.subscriberCount == 0)
    }
}
