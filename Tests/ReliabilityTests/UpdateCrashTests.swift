import Foundation
import Persist
import PersistTestSupport
import Testing

extension CrashTests {
    @Suite("set-based updates")
    struct Updates {
        static let rows = 200

        /// Checks the store after a kill: every row carries one round, and the index on `round`
        /// lists exactly the rows. Returns that round.
        static func wholeRound(_ store: any DataStore, _ crash: CrashCase, round: Int) throws -> Int64 {
            let rows = try store.read { accessor in try accessor.items(forRequest: DataStoreRequest(itemType: "Row")) }
            crash.check(rows.count == Self.rows, round: round, "\(rows.count) rows instead of \(Self.rows)")
            let rounds = Set(rows.compactMap { $0["round"]?.intValue })
            crash.check(rounds.count == 1, round: round, "the rows carry several rounds: \(rounds.sorted())")
            let last = rounds.max() ?? 0
            let (listed, previous) = try store.read { accessor in
                var request = DataStoreRequest(itemType: "Row")
                request.setFilter(whereAttribute: "round", equalsValue: .int(last))
                let listed = try accessor.items(forRequest: request).count
                request.setFilter(whereAttribute: "round", equalsValue: .int(last - 1))
                return (listed, try accessor.countItems(forRequest: request))
            }
            crash.check(listed == Self.rows && previous == 0, round: round,
                        "the index on round lists \(listed) rows for round \(last) and \(previous) for the one before")
            return last
        }

        @Test("an updateItems killed with SIGKILL is applied whole or not at all, with its index",
              arguments: StoreKind.allCases)
        func killedUpdate(_ kind: StoreKind) throws {
            try CrashTests.killStoreWorker("update", kind, rows: Int64(Self.rows), wholeRound: Self.wholeRound)
        }
    }
}
