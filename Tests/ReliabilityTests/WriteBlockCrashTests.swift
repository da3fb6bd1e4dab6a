import Foundation
import Persist
import PersistTestSupport
import Testing

extension CrashTests {
    @Suite("write blocks")
    struct WriteBlocks {
        static let perBlock = 5

        /// Checks the store after a kill: `Current` holds one whole block, `Log` exactly the last
        /// `window` whole blocks. Returns the last block.
        static func lastWholeBlock(_ store: any DataStore, _ crash: CrashCase, round: Int) throws -> Int64 {
            let (current, log) = try store.read { accessor in
                (try accessor.items(forRequest: DataStoreRequest(itemType: "Current")),
                 try accessor.items(forRequest: DataStoreRequest(itemType: "Log")))
            }
            let sequences = Set(current.compactMap { $0["seq"]?.intValue })
            crash.check(current.count == perBlock && sequences.count == 1, round: round,
                        "Current holds parts of several blocks: \(current)")
            let last = sequences.max() ?? 0
            var expected: Set<ItemID> = []
            if last > 0 {
                for block in max(1, last - CrashTests.window + 1)...last {
                    for index in 0..<perBlock { expected.insert(.string("\(block)-\(index)")) }
                }
            }
            crash.check(Set(log.map(\.id)) == expected, round: round,
                        "Log does not hold exactly the last \(CrashTests.window) whole blocks up to \(last)")
            for item in log {
                let block = item.id.value.stringValue?.split(separator: "-").first.flatMap { Int64($0) }
                crash.check(block != nil && item["seq"] == .int(block ?? -1), round: round,
                            "\(item) carries another block's sequence number")
            }
            return last
        }

        @Test("a writer killed with SIGKILL leaves only whole blocks and keeps every returned one",
              arguments: StoreKind.allCases, Durability.allCases)
        func killedWriter(_ kind: StoreKind, _ durability: Durability) throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("blocks.\(kind)")
            let crash = CrashCase("blocks-\(kind)-\(durability)", minimumKills: kind == .gdbm ? 15 : 1)
            try crash.killCountingWorker(["blocks", kind.rawValue, path, durability.rawValue, String(Self.perBlock)],
                                         maximumDelay: 0.03) { round in
                let store = kind.store(path, durability: durability)
                try store.setup()
                let last = try Self.lastWholeBlock(store, crash, round: round)
                try store.tearDown()
                return last
            }
            crash.finish()
        }
    }
}
