import Foundation
import Persist
import Testing

/// Random requests on random data, checked against ``ReferenceEvaluator``.
public enum DifferentialTests {
    /// The seed: `PERSIST_DIFFERENTIAL_SEED` from the environment, or a fixed default.
    public static var seed: UInt64 {
        ProcessInfo.processInfo.environment["PERSIST_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? 20_261_121
    }

    /// How many random requests one run checks.
    public static let requestCount = 1200

    static let all: [ConformanceTest] = [
        ConformanceTest("1,200 random requests give exactly the reference evaluator's results",
                        group: .differential) { context in
            let store = try context.makeStore()
            try run(on: store, seed: seed, requests: requestCount)
        },
    ]

    /// Loads random data into `store` and checks `requests` random requests (items, count and
    /// first item) against the reference evaluator, recording at most a few mismatches in detail.
    public static func run(on store: any DataStore, seed: UInt64, requests: Int) throws {
        var random = RandomData(seed: seed)
        let perType = 60
        let items = random.items(perType: perType)
        try store.writeSync { accessor throws in
            for item in items { try accessor.insert(item) }
        }
        var mismatches = 0
        for number in 0..<requests {
            let request = random.request(itemCount: perType)
            let expected = ReferenceEvaluator.evaluate(request, over: items)
            let (actual, count, first) = try store.read { accessor throws in
                (try accessor.items(forRequest: request), try accessor.countItems(forRequest: request),
                 try accessor.firstItem(forRequest: request))
            }
            if actual != expected || count != expected.count || first != expected.first {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record("""
                        request #\(number) (seed \(seed)) differs from the reference:
                          request: type \(request.itemType), filter \(request.filter.map { "\($0)" } ?? "none"), \
                        sort \(request.sortDescriptors.map { "\($0.key) \($0.ascending ? "asc" : "desc")" }), \
                        offset \(request.offset), limit \(request.limit.map(String.init) ?? "none")
                          expected \(expected.count): \(expected.map(\.id))
                          actual   \(actual.count): \(actual.map(\.id)); count \(count); first \(first?.id.description ?? "nil")
                        """)
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(requests) requests differ (seed \(seed))")
    }
}
