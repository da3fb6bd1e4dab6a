import Dispatch
import Foundation
import Persist
import PersistConformance
import PersistSQLite
import Testing
import PersistTestSupport

/// WAL snapshots: reads proceed while a long write block is open, and see the state from before it.
@Suite("SQLiteDataStore reads do not wait for writes")
struct SnapshotReadTests {
    @Test("a read during a long write block proceeds and sees the snapshot from before the write",
          arguments: [false, true])
    func readDuringLongWrite(inMemory: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = inMemory
            ? SQLiteDataStore.inMemory(options: quietOptions())
            : SQLiteDataStore(path: directory.path("snapshot.sqlite"), options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        let before = (0..<3).map { Item(itemType: "Account", id: .int($0), attributes: ["balance": 100]) }
        try store.writeSync { accessor in for item in before { try accessor.insert(item) } }

        let writeIsOpen = DispatchSemaphore(value: 0)
        let readIsDone = DispatchSemaphore(value: 0)
        let writeIsDone = DispatchSemaphore(value: 0)
        let order = Locked<[String]>([])
        DispatchQueue.global().async {
            do {
                try store.writeSync { accessor throws in
                    for index in 3..<1_003 {
                        try accessor.insert(Item(itemType: "Account", id: .int(Int64(index)), attributes: ["balance": 1]))
                    }
                    try accessor.save(Item(itemType: "Account", id: 0, attributes: ["balance": 0]))
                    try accessor.delete(item: before[1])
                    writeIsOpen.signal()
                    // Keep the transaction open until the read is done; if reads waited for writes,
                    // the read below could not finish and the write would give up waiting here.
                    let finished = readIsDone.wait(timeout: .now() + 60) == .success
                    order.withLock { $0.append(finished ? "write saw the read finish" : "write gave up waiting") }
                }
            } catch {
                order.withLock { $0.append("write failed: \(error)") }
            }
            writeIsDone.signal()
        }
        writeIsOpen.wait()
        let seen = try store.read { accessor in
            (try accessor.items(forRequest: DataStoreRequest(itemType: "Account")),
             try accessor.countItems(forRequest: DataStoreRequest(itemType: "Account")))
        }
        order.withLock { $0.append("read finished") }
        readIsDone.signal()
        writeIsDone.wait()

        #expect(seen.0 == before)
        #expect(seen.1 == 3)
        #expect(order.value == ["read finished", "write saw the read finish"])
        let after = try allItems(store, "Account")
        #expect(after.count == 1_002)
        #expect(after.first == Item(itemType: "Account", id: 0, attributes: ["balance": 0]))
    }

    @Test("a read block keeps its snapshot while later write blocks commit")
    func readKeepsSnapshotAcrossCommits() throws {
        try withFileStore { store, _ throws in
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: "first")) }
            let counts = try store.read { accessor -> [Int] in
                let request = DataStoreRequest(itemType: "Note")
                var counts = [try accessor.countItems(forRequest: request)]
                let committed = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    // A new table and a new column: schema changes commit while the read is open.
                    try? store.writeSync { accessor in
                        try accessor.insert(Item(itemType: "Note", id: "second", attributes: ["text": "new column"]))
                        try accessor.insert(Item(itemType: "Other", id: 1))
                    }
                    committed.signal()
                }
                committed.wait()
                counts.append(try accessor.countItems(forRequest: request))
                counts.append(try accessor.itemTypes().count)
                return counts
            }
            #expect(counts == [1, 1, 1])
            #expect(try store.read { try $0.itemTypes() } == ["Note", "Other"])
            #expect(try allItems(store, "Note").last?["text"] == "new column")
        }
    }
}
