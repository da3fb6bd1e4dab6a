import Dispatch
import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

/// A read block's `COMMIT` is sent after the block, when its session stays idle. Until then the
/// session's transaction keeps the locks of what it read, so the flush must not depend on threads
/// the application may have taken: app code that keeps every thread of Dispatch's global queue busy
/// (CPU-bound work items) must not hold a write that changes a table hostage.
@Suite("PostgreSQL reader sessions end their transactions while app code keeps Dispatch's global queue busy")
struct ReaderFlushTests {
    @Test("a read's COMMIT goes out while every thread of the global queue is busy, so a write that adds a column gets its lock")
    func commitSentWithBusyGlobalQueue() throws {
        try withPostgresStore(options: { $0.lockTimeout = .seconds(3) }) { store, _ in
            try seed(store, [Item(itemType: "Note", id: 1, attributes: ["v": "a"])])
            let spinning = ProcessInfo.processInfo.activeProcessorCount * 2
            let group = DispatchGroup()
            let stopped = Locked(false)
            for _ in 0..<spinning {
                DispatchQueue.global().async(group: group) {
                    while !stopped.value {}
                }
            }
            defer {
                stopped.withLock { $0 = true }
                group.wait()
            }
            _ = try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) }
            // A new attribute adds a column: ALTER TABLE waits for every transaction that read the
            // table, the reader session's among them, and gives up after the 3-second lock timeout.
            try store.writeSync { try $0.save(Item(itemType: "Note", id: 2, attributes: ["v": "b", "w": 1])) }
            stopped.withLock { $0 = true }
            #expect(try allItems(store, "Note").map(\.id) == [1, 2])
        }
    }
}
