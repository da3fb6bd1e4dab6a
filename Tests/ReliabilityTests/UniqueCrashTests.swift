import Foundation
import Persist
import PersistTestSupport
import Testing

extension CrashTests {
    @Suite("unique indexes")
    struct UniqueIndexes {
        static let rows: Int64 = 60

        /// Checks the store after a kill: every row carries one round and the code that round gave
        /// it, an equality query on each code (which the index answers on GDBM) finds exactly its
        /// row, and the index still refuses a duplicate. Returns that round.
        static func wholeRound(_ store: any DataStore, _ crash: CrashCase, round: Int) throws -> Int64 {
            let rows = try store.read { accessor in try accessor.items(forRequest: DataStoreRequest(itemType: "Seat")) }
            crash.check(rows.count == Int(Self.rows), round: round, "\(rows.count) rows instead of \(Self.rows)")
            let rounds = Set(rows.compactMap { $0["round"]?.intValue })
            crash.check(rounds.count == 1, round: round, "the rows carry several rounds: \(rounds.sorted())")
            let last = rounds.max() ?? 0
            for row in rows {
                guard case .int(let id) = row.id else { continue }
                crash.check(row["code"] == .int((id + last) % Self.rows), round: round, "\(row.reference) holds \(String(describing: row["code"]))")
            }
            let found = try store.read { accessor in
                try (0..<Self.rows).map { code in
                    var request = DataStoreRequest(itemType: "Seat")
                    request.setFilter(whereAttribute: "code", equalsValue: .int(code))
                    return try accessor.items(forRequest: request).map(\.id)
                }
            }
            for (code, ids) in found.enumerated() {
                let expected = ItemID.int((Int64(code) - last % Self.rows + Self.rows) % Self.rows)
                crash.check(ids == [expected], round: round, "the query for code \(code) finds \(ids), not \(expected)")
            }
            do {
                try store.writeSync { accessor in
                    try accessor.insert(Item(itemType: "Seat", id: .int(Self.rows), attributes: ["code": 0]))
                }
                crash.check(false, round: round, "a second item with code 0 was stored")
            } catch let error as DataStoreError {
                crash.check(error.code == .uniqueViolation, round: round, "a duplicate code gave \(error)")
            }
            return last
        }

        @Test("write blocks that rotate unique values, killed with SIGKILL, leave every value on one row and the index whole",
              arguments: StoreKind.allCases)
        func killedRotation(_ kind: StoreKind) throws {
            try CrashTests.killStoreWorker("unique", kind, rows: Self.rows, wholeRound: Self.wholeRound)
        }
    }
}
