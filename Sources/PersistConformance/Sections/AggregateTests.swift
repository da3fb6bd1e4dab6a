import Foundation
import Persist
import Testing

/// `minimum`, `maximum`, `sum` and `average` of an attribute over a request.
enum AggregateTests {
    static func dish(_ id: ItemID, _ attributes: [String: Value]) -> Item {
        Item(itemType: "Dish", id: id, attributes: attributes)
    }

    /// Reads the four aggregates of `attribute` over `request`.
    static func aggregates(_ store: any DataStore, _ attribute: String, _ request: DataStoreRequest)
        throws -> (minimum: Value?, maximum: Value?, sum: Value, average: Double?)
    {
        try store.read { accessor in
            (try accessor.minimum(of: attribute, forRequest: request), try accessor.maximum(of: attribute, forRequest: request),
             try accessor.sum(of: attribute, forRequest: request), try accessor.average(of: attribute, forRequest: request))
        }
    }

    static let dishes = DataStoreRequest(itemType: "Dish")

    static func date(_ seconds: Double) -> Value { .date(Date(timeIntervalSinceReferenceDate: seconds)) }

    static let all: [ConformanceTest] = [
        ConformanceTest("minimum, maximum, sum and average of numbers, skipping items without the attribute",
                        group: .aggregates) { context in
            let store = try context.makeStore()
            try seed(store, [dish("a", ["price": 3]), dish("b", ["price": 2.5]), dish("c", ["price": 10]), dish("d", [:])])
            let result = try aggregates(store, "price", dishes)
            #expect(result.minimum == 2.5)
            #expect(result.maximum == 10)
            #expect(result.sum == 15.5)
            #expect(result.average == 15.5 / 3)
            try seed(store, [dish("e", ["price": 4]), dish("f", ["price": -1])])
            var integers = dishes
            integers.filter = .attribute("price") != 2.5
            #expect(try aggregates(store, "price", integers).sum == .int(16))
        },
        ConformanceTest("nothing to aggregate gives nil, and a sum of 0", group: .aggregates) { context in
            let store = try context.makeStore()
            try seed(store, [dish("a", ["name": "soup"])])
            for (attribute, itemType) in [("price", "Dish"), ("name", "Nothing"), ("missing", "Dish")] {
                let result = try aggregates(store, attribute, DataStoreRequest(itemType: itemType))
                #expect(result.minimum == nil)
                #expect(result.maximum == nil)
                #expect(result.sum == .int(0))
                #expect(result.average == nil)
            }
            let names = try aggregates(store, "name", dishes)
            #expect(names.minimum == "soup")
            #expect(names.sum == .int(0))
            #expect(names.average == nil)
        },
        ConformanceTest("strings, dates and booleans have extremes in sort order but no sum", group: .aggregates) { context in
            let store = try context.makeStore()
            try seed(store, [
                dish("a", ["name": "apple", "served": date(5), "flag": true]),
                dish("b", ["name": "Zebra", "served": date(-2), "flag": false]),
                dish("c", ["name": "é", "served": date(100)]),
            ])
            let names = try aggregates(store, "name", dishes)
            #expect(names.minimum == "Zebra")
            #expect(names.maximum == "é")
            let served = try aggregates(store, "served", dishes)
            #expect(served.minimum == date(-2))
            #expect(served.maximum == date(100))
            #expect(served.sum == .int(0))
            let flags = try aggregates(store, "flag", dishes)
            #expect(flags.minimum == false)
            #expect(flags.maximum == true)
            #expect(flags.average == nil)
        },
        ConformanceTest("the filter, sort order, offset and limit choose what is aggregated, as for countItems",
                        group: .aggregates) { context in
            let store = try context.makeStore()
            try seed(store, (1...6).map { dish(.int(Int64($0)), ["price": .int(Int64($0 * 10)), "rank": .int(Int64(7 - $0))]) })
            var request = dishes
            request.filter = .attribute("price") >= 20
            request.setSort(byKey: "rank", ascending: true)
            request.offset = 1
            request.limit = 2
            // rank ascending: 6 (60), 5 (50), 4 (40)…; after offset 1 and limit 2: 50 and 40.
            let result = try aggregates(store, "price", request)
            #expect(result.minimum == 40)
            #expect(result.maximum == 50)
            #expect(result.sum == 90)
            #expect(result.average == 45)
            #expect(try store.read { accessor in try accessor.countItems(forRequest: request) } == 2)
        },
        ConformanceTest("sums are exact and independent of order; integer sums that overflow become doubles",
                        group: .aggregates) { context in
            let store = try context.makeStore()
            try seed(store, [dish("a", ["x": 1e100]), dish("b", ["x": 1]), dish("c", ["x": -1e100]),
                             dish("d", ["y": .int(.max)]), dish("e", ["y": 1]),
                             dish("f", ["z": 0.1]), dish("g", ["z": 0.2]), dish("h", ["z": 0.3])])
            #expect(try aggregates(store, "x", dishes).sum == 1.0)
            var reversed = dishes
            reversed.sortDescriptors = [.descending("x")]
            #expect(try aggregates(store, "x", reversed).sum == 1.0)
            #expect(try aggregates(store, "y", dishes).sum == .double(9_223_372_036_854_775_808.0))
            #expect(try aggregates(store, "y", dishes).average == 4_611_686_018_427_387_904.0)
            // 0.1 + 0.2 + 0.3 is 0.6000000000000001 added left to right; the exact sum rounds to 0.6.
            #expect(try aggregates(store, "z", dishes).sum == 0.6)
        },
        ConformanceTest("NaN sorts first and makes sums NaN; ties keep the value met first in the request's order",
                        group: .aggregates) { context in
            let store = try context.makeStore()
            try seed(store, [dish("a", ["n": 2, "order": 2]), dish("b", ["n": .double(.nan), "order": 3]),
                             dish("c", ["t": 1, "order": 2]), dish("d", ["t": 1.0, "order": 1])])
            let result = try aggregates(store, "n", dishes)
            #expect(result.minimum == .double(.nan))
            #expect(result.maximum == 2)
            #expect(result.sum.doubleValue?.isNaN == true)
            #expect(try aggregates(store, "t", dishes).minimum == .int(1))
            var byOrder = dishes
            byOrder.setSort(byKey: "order", ascending: true)
            #expect(try aggregates(store, "t", byOrder).minimum == .double(1.0))
            #expect(try aggregates(store, "t", byOrder).maximum == .double(1.0))
        },
        ConformanceTest("invalid requests and attribute names are refused", group: .aggregates) { context in
            let store = try context.makeStore()
            expectError(.invalidArgument) { try store.read { accessor in try accessor.sum(of: "", forRequest: dishes) } }
            expectError(.invalidArgument) {
                try store.read { accessor in try accessor.minimum(of: "a", forRequest: DataStoreRequest(itemType: "Dish", limit: -1)) }
            }
        },
    ]
}
