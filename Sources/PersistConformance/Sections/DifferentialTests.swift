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
        let items = random.items(perType: perType)
        try store.writeSync { accessor in
            for item in items { try accessor.insert(item) }
        }
        try check(store, holding: items, random: &random, seed: seed, requests: requests)
    }

    /// Loads random data into `parent`, then makes a child that inserts, replaces and deletes a
    /// random share of it, and checks random requests through the child against the reference
    /// evaluator over the child's view.
    public static func runThroughChild(of parent: any DataStore, seed: UInt64, requests: Int) throws {
        var random = RandomData(seed: seed)
        let items = random.items(perType: perType)
        let replacements = random.items(perType: perType)
        var expected: [ItemReference: Item] = [:]
        try parent.writeSync { accessor in
            for (index, item) in items.enumerated() where index % 3 != 0 {
                try accessor.insert(item)
                expected[item.reference] = item
            }
        }
        let child = try parent.makeChildDataStore()
        try child.setup()
        try child.writeSync { accessor in
            for (index, item) in items.enumerated() {
                switch index % 6 {
                case 0, 3:
                    try accessor.insert(item)
                    expected[item.reference] = item
                case 1:
                    let replacement = Item(itemType: item.itemType, id: item.id, attributes: replacements[index].attributes)
                    try accessor.save(replacement)
                    expected[item.reference] = replacement
                case 2:
                    try accessor.delete(item: item)
                    expected[item.reference] = nil
                default:
                    break
                }
            }
        }
        try check(child, holding: Array(expected.values), random: &random, seed: seed, requests: requests)
    }

    static let perType = 60

    private static func check(
        _ store: any DataStore, holding items: [Item], random: inout RandomData<SeededGenerator>, seed: UInt64, requests: Int
    ) throws {
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
