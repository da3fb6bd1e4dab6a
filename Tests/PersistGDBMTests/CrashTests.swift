import Foundation
import Logging
import Persist
import PersistGDBM
import Testing
import PersistTestSupport

@Suite("GDBM write blocks survive SIGKILL at random moments")
struct CrashTests {
    static let perBlock = 5
    static let logWindow: Int64 = 8
    /// Kills per durability level (so 50 in all).
    static let rounds = 25

    /// Checks the invariants of the worker's `gdbm-blocks` mode and returns the last whole block.
    static func lastWholeBlock(_ store: GDBMDataStore) throws -> Int64 {
        let (current, log) = try store.read { accessor in
            (try accessor.items(forRequest: DataStoreRequest(itemType: "Current")),
             try accessor.items(forRequest: DataStoreRequest(itemType: "Log")))
        }
        let sequences = Set(current.compactMap { $0["seq"]?.intValue })
        #expect(current.count == perBlock && sequences.count == 1, "Current holds parts of several blocks: \(current)")
        let last = sequences.max() ?? 0
        var expected: Set<ItemID> = []
        for block in max(1, last - logWindow + 1)...max(last, 1) where last > 0 {
            for index in 0..<perBlock { expected.insert(.string("\(block)-\(index)")) }
        }
        #expect(Set(log.map(\.id)) == expected, "Log does not hold exactly the last \(logWindow) whole blocks up to \(last)")
        for item in log {
            guard case .string(let id) = item.id, let block = id.split(separator: "-").first.flatMap({ Int64($0) }) else {
                Issue.record("unexpected Log item \(item)")
                continue
            }
            #expect(item["seq"] == .int(block), "\(item) carries another block's sequence number")
        }
        return last
    }

    @Test("a writer killed with SIGKILL leaves only whole blocks and keeps every returned one",
          arguments: [Durability.normal, .full])
    func killedWriter(_ durability: Durability) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("crash.gdbm")
        var lastReturned: Int64 = 0
        var kills = 0
        for _ in 0..<Self.rounds {
            let worker = try ChildProcess(["gdbm-blocks", path, durability.rawValue, String(Self.perBlock)])
            guard worker.waitForLines(1) else {
                worker.kill()
                Issue.record("the worker never finished a block: \(worker.errorOutput)")
                return
            }
            usleep(UInt32.random(in: 0...30_000))
            worker.kill()
            kills += 1
            lastReturned = max(lastReturned, worker.lines.compactMap { Int64($0) }.last ?? 0)

            let store = GDBMDataStore(path: path, options: .init(durability: durability, logger: .quiet))
            try store.setup()
            let last = try Self.lastWholeBlock(store)
            try store.tearDown()
            #expect(last >= lastReturned, "block \(lastReturned) returned from writeSync but the store holds only \(last)")
        }
        #expect(kills == Self.rounds)
    }
}
