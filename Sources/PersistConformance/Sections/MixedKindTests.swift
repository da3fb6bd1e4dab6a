import Foundation
import Persist
import Testing

/// Every mix of kinds in one attribute: stored losslessly, and filtered, sorted, aggregated,
/// indexed and written set-wise exactly as the reference evaluator says.
enum MixedKindTests {
    /// One item per edge value, all in the attribute `v`, in an order that makes each column meet
    /// a new kind at every step (a number first, then a bool, a date, a string, bytes, nesting…).
    static func items() -> [Item] {
        let values = interleavedKinds(EdgeValues.all)
        return values.enumerated().map { index, value in
            Item(itemType: "Mixed", id: .int(Int64(index)), attributes: ["v": value, "w": values[(index * 7) % values.count]])
        }
    }

    /// The values reordered so that consecutive values differ in kind where possible.
    static func interleavedKinds(_ values: [Value]) -> [Value] {
        var byKind: [[Value]] = []
        for value in values {
            if let index = byKind.firstIndex(where: { $0.first?.kind == value.kind }) {
                byKind[index].append(value)
            } else {
                byKind.append([value])
            }
        }
        var result: [Value] = []
        var round = 0
        while result.count < values.count {
            for group in byKind where round < group.count { result.append(group[round]) }
            round += 1
        }
        return result
    }

    /// A value of another kind than `value`'s.
    static func anotherKind(_ value: Value) -> Value {
        switch value {
        case .null: true
        case .bool: 1
        case .int: "text"
        case .double: .date(Date(timeIntervalSinceReferenceDate: 7))
        case .string: true
        case .bytes: [1, "a"]
        case .date: "a date"
        case .array: .bytes([1])
        case .object: 2.5
        case .decimal: "a decimal"
        }
    }

    /// Literals of every kind, for comparing with the mixed attribute.
    static let literals: [Value] = [
        .null, false, true, 0, -1, 2.5, .double(.nan), .double(-.infinity), .int(.max), "", "a", "a\u{0}b",
        .bytes([]), .bytes([0]), .bytes([1, 2]), .date(Date(timeIntervalSinceReferenceDate: 0)),
        .date(Date(timeIntervalSinceReferenceDate: -1)), [], [1], [:], ["a": 1],
    ]

    /// Every predicate of one operator over `v` with one of ``literals``.
    static func predicates() -> [DataStorePredicate] {
        var predicates: [DataStorePredicate] = [.isNil(attribute: "v"), .isIn(attribute: "v", [1, "a", true, .null])]
        for literal in literals {
            for op in DataStorePredicate.ComparisonOperator.allCases {
                predicates.append(.comparison(attribute: "v", op, literal))
            }
            for op in DataStorePredicate.TextOperator.allCases {
                predicates.append(.text(attribute: "v", op, literal))
            }
        }
        return predicates
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("every Value kind and edge case round-trips losslessly in one attribute", group: .items) { context in
            let store = try context.makeStore()
            let items = items()
            // One write block per item, so that a store with typed columns meets a new kind in a
            // column it has already created, again and again.
            for item in items { try store.writeSync { accessor in try accessor.insert(item) } }
            let stored = try allItems(store, "Mixed")
            #expect(stored == items)
            for item in items {
                let found = try store.read { accessor in try accessor.item(ofType: "Mixed", id: item.id) }
                #expect(found == item, "\(item) came back as \(found.map { "\($0)" } ?? "nothing")")
            }
        },
        ConformanceTest("save and updateItems put any kind in an attribute that holds another", group: .setWrites) { context in
            let store = try context.makeStore()
            var items = [Item(itemType: "Mixed", id: 1, attributes: ["v": .date(Date(timeIntervalSinceReferenceDate: 5))]),
                         Item(itemType: "Mixed", id: 2, attributes: ["v": 7])]
            try seed(store, items)
            items[0]["v"] = true
            try store.writeSync { accessor in try accessor.save(items[0]) }
            var everyOne = DataStoreRequest(itemType: "Mixed")
            everyOne.filter = .attribute("v") == 7
            let updated = try store.writeSync { accessor in try accessor.updateItems(forRequest: everyOne, setting: ["v": ["x": [1, 2]]]) }
            #expect(updated == 1)
            items[1]["v"] = ["x": [1, 2]]
            #expect(try allItems(store, "Mixed") == items)
            let trueOnes = try store.read { accessor in
                try accessor.items(forRequest: DataStoreRequest(itemType: "Mixed", filter: .attribute("v") == true))
            }
            #expect(trueOnes.map(\.id) == [1])
        },
        ConformanceTest("filters, sorts and aggregates over an attribute mixing every kind match the reference evaluator",
                        group: .requests) { context in
            let store = try context.makeStore()
            let items = items()
            for item in items { try store.writeSync { accessor in try accessor.insert(item) } }
            var requests: [DataStoreRequest] = []
            for predicate in predicates() {
                requests.append(DataStoreRequest(itemType: "Mixed", filter: predicate))
            }
            for ascending in [true, false] {
                var sorted = DataStoreRequest(itemType: "Mixed")
                sorted.sortDescriptors = [DataStoreSortDescriptor(key: "v", ascending: ascending),
                                          DataStoreSortDescriptor(key: "w", ascending: !ascending)]
                requests.append(sorted)
                sorted.filter = .attribute("v") != .null
                sorted.offset = 3
                sorted.limit = 9
                requests.append(sorted)
            }
            for request in requests {
                let expected = ReferenceEvaluator.evaluate(request, over: items)
                let actual = try store.read { accessor in try accessor.items(forRequest: request) }
                #expect(actual.map(\.id) == expected.map(\.id), "\(request.filter.map { "\($0)" } ?? "sorted")")
                let count = try store.read { accessor in try accessor.countItems(forRequest: request) }
                #expect(count == expected.count)
            }
            for function in AggregateFunction.allCases {
                for request in [DataStoreRequest(itemType: "Mixed"), requests[7], requests[40]] {
                    let actual = try store.read { accessor in
                        try StoreAggregates.value(function, of: "v", forRequest: request, in: accessor)
                    }
                    #expect(actual == ReferenceAggregates.evaluate(function, of: "v", request, over: items), "\(function)")
                }
            }
        },
        ConformanceTest("a unique index over mixed kinds refuses equal values of one class and allows every other kind",
                        group: .indexes) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor in try accessor.ensureIndex(ofType: "Mixed", on: ["v"], unique: true) }
            let distinct: [Value] = [1, "1", true, .bytes([1]), .date(Date(timeIntervalSinceReferenceDate: 1)), [1], ["a": 1],
                                     .double(.nan), 2.5]
            for (index, value) in distinct.enumerated() {
                try store.writeSync { accessor in
                    try accessor.insert(Item(itemType: "Mixed", id: .int(Int64(index)), attributes: ["v": value]))
                }
            }
            #expect(try allItems(store, "Mixed").count == distinct.count)
            // 1.0 equals 1: refused, and nothing is written.
            expectError(.uniqueViolation) {
                try store.writeSync { accessor in try accessor.insert(Item(itemType: "Mixed", id: 100, attributes: ["v": 1.0])) }
            }
            expectError(.uniqueViolation) {
                try store.writeSync { accessor in try accessor.insert(Item(itemType: "Mixed", id: 101, attributes: ["v": true])) }
            }
            #expect(try allItems(store, "Mixed").count == distinct.count)
            let found = try store.read { accessor in
                try accessor.items(forRequest: DataStoreRequest(itemType: "Mixed", filter: .attribute("v") == 1.0))
            }
            #expect(found.map(\.id) == [0])
        },
    ]
}
