import Foundation
import Persist
import PersistTestSupport
import Testing

extension CrashTests {
    @Suite("child-store merges")
    struct Merges {
        static let perRound: Int64 = 50

        /// Checks the store after a kill: every round in the window is wholly there, no other, and
        /// `Latest` names the last of them. Returns the last round.
        static func lastWholeRound(_ store: any DataStore, _ crash: CrashCase, round: Int) throws -> Int64 {
            let (batch, latest) = try store.read { accessor in
                (try accessor.items(forRequest: DataStoreRequest(itemType: "Batch")),
                 try accessor.item(ofType: "Latest", id: 0))
            }
            let last = latest?["round"]?.intValue ?? 0
            var rounds: [Int64: Set<Int64>] = [:]
            for item in batch {
                let prefix = item.id.value.stringValue?.split(separator: "-").first.flatMap { Int64($0) }
                crash.check(prefix != nil && item["round"] == .int(prefix ?? -1), round: round,
                            "\(item) carries another round's number")
                if let prefix, let index = item["index"]?.intValue { rounds[prefix, default: []].insert(index) }
            }
            let expectedRounds = last > 0 ? Set(max(1, last - CrashTests.window + 1)...last) : []
            crash.check(Set(rounds.keys) == expectedRounds, round: round,
                        "the store holds the rounds \(rounds.keys.sorted()), not \(expectedRounds.sorted()) up to Latest = \(last)")
            for (merged, indexes) in rounds {
                crash.check(indexes == Set(0..<perRound), round: round,
                            "round \(merged) is partly merged: \(indexes.count) of \(perRound) items")
            }
            return last
        }

        @Test("a merge killed with SIGKILL is whole or absent, and every returned merge stays",
              arguments: StoreKind.allCases)
        func killedMerge(_ kind: StoreKind) throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("merge.\(kind)")
            let crash = CrashCase("merge-\(kind)")
            try crash.killCountingWorker(["merge", kind.rawValue, path, String(Self.perRound)], maximumDelay: 0.04) { round in
                let store = kind.store(path)
                try store.setup()
                let last = try Self.lastWholeRound(store, crash, round: round)
                try store.tearDown()
                return last
            }
            crash.finish()
        }
    }
}
