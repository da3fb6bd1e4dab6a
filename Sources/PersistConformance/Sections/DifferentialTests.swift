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

    /// How many random set-based writes and aggregates one run checks.
    public static let writeRoundCount = 400

    static let all: [ConformanceTest] = [
        ConformanceTest("1,200 random requests give exactly the reference evaluator's results",
                        group: .differential) { context in
            let store = try context.makeStore()
            try run(on: store, seed: seed, requests: requestCount, extras: RandomExtras(for: context.factory.capabilities))
        },
        ConformanceTest("400 random deleteItems, updateItems and aggregates give exactly the reference evaluator's results",
                        group: .differential) { context in
            let store = try context.makeStore()
            try runWrites(on: store, seed: seed, rounds: writeRoundCount, extras: RandomExtras(for: context.factory.capabilities))
        },
    ]

    /// Loads random data into `store`, then runs `rounds` random `deleteItems`, `updateItems` and
    /// aggregates over random requests, checking each result, and the store's whole contents after
    /// each write, against the reference evaluator.
    ///
    /// ```swift
    /// try DifferentialTests.runWrites(on: store, seed: 7, rounds: 100)
    /// ```
    public static func runWrites(on store: any DataStore, seed: UInt64, rounds: Int, extras: RandomExtras = []) throws {
        var random = RandomData(seed: seed &+ 1, extras: extras)
        var items = random.items(perType: perType)
        try store.writeSync { accessor in
            for item in items { try accessor.insert(item) }
        }
        var mismatches = 0
        func mismatch(_ number: Int, _ request: DataStoreRequest, _ what: String) {
            mismatches += 1
            guard mismatches <= 5 else { return }
            Issue.record("""
                round #\(number) (seed \(seed)) differs from the reference: \(what)
                  request: type \(request.itemType), filter \(request.filter.map { "\($0)" } ?? "none"), \
                sort \(request.sortDescriptors.map { "\($0.key) \($0.ascending ? "asc" : "desc")" }), \
                offset \(request.offset), limit \(request.limit.map(String.init) ?? "none")
                """)
        }
        for number in 0..<rounds {
            if items.count < perType {
                // Deletes emptied the store: start again from fresh data.
                items = random.items(perType: perType)
                let fresh = items
                try store.writeSync { accessor in
                    for itemType in RandomPools.itemTypes { try accessor.deleteAllItems(ofType: itemType) }
                    for item in fresh { try accessor.insert(item) }
                }
            }
            let request = random.request(itemCount: perType)
            switch random.writeRound() {
            case .delete:
                let count = try store.writeSync { accessor in try accessor.deleteItems(forRequest: request) }
                let expected = ReferenceEvaluator.deleting(request, from: items)
                items = expected.items
                if count != expected.count { mismatch(number, request, "deleteItems returned \(count), not \(expected.count)") }
            case .update(let values):
                let count = try store.writeSync { accessor in try accessor.updateItems(forRequest: request, setting: values) }
                let expected = ReferenceEvaluator.updating(request, setting: values, in: items)
                items = expected.items
                if count != expected.count {
                    mismatch(number, request, "updateItems(setting: \(values)) returned \(count), not \(expected.count)")
                }
            case .aggregate(let attribute):
                for function in AggregateFunction.allCases {
                    let actual = try store.read { accessor in
                        try StoreAggregates.value(function, of: attribute, forRequest: request, in: accessor)
                    }
                    let expected = ReferenceAggregates.evaluate(function, of: attribute, request, over: items)
                    if actual != expected {
                        mismatch(number, request, "\(function) of \(attribute) is \(actual.map { "\($0)" } ?? "nil"), "
                                    + "not \(expected.map { "\($0)" } ?? "nil")")
                    }
                }
                continue
            }
            for itemType in RandomPools.itemTypes {
                let stored = try allItems(store, itemType)
                let expected = ReferenceEvaluator.evaluate(DataStoreRequest(itemType: itemType), over: items)
                if stored != expected {
                    mismatch(number, request, "the items of \(itemType) differ afterwards: "
                                + "\(Set(stored).symmetricDifference(expected).prefix(3))")
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(rounds) rounds differ (seed \(seed))")
    }

    /// Loads random data into `store` and checks `requests` random requests (items, count and
    /// first item) against the reference evaluator, recording at most a few mismatches in detail.
    public static func run(on store: any DataStore, seed: UInt64, requests: Int, extras: RandomExtras = []) throws {
        var random = RandomData(seed: seed, extras: extras)
        let items = random.items(perType: perType)
        try store.writeSync { accessor in
            for item in items { try accessor.insert(item) }
        }
        try check(store, holding: items, random: &random, seed: seed, requests: requests)
    }

    /// Loads random data into `parent`, then makes a child that inserts, replaces and deletes a
    /// random share of it, and checks random requests through the child against the reference
    /// evaluator over the child's view.
    public static func runThroughChild(
        of parent: any DataStore, seed: UInt64, requests: Int, extras: RandomExtras = []
    ) throws {
        var random = RandomData(seed: seed, extras: extras)
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
