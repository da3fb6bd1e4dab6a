import Foundation
import Testing

@testable import Persist

@Suite("Predicate semantics")
struct PredicateSemanticsTests {
    let item = Item(itemType: "T", id: 1, attributes: [
        "int": 3, "double": 2.5, "nan": .double(.nan), "negZero": -0.0, "string": "abc", "bytes": .bytes([1, 2]),
        "flag": false, "date": .date(Date(timeIntervalSinceReferenceDate: 10)), "list": [1, 2], "big": .int(.max),
    ])

    @Test("operators build the expression tree")
    func building() {
        let predicate: DataStorePredicate = .attribute("a") >= 3 && !(.attribute("b") == false) || .attribute("c").isNil
        #expect(predicate == .or(.and(.comparison(attribute: "a", .greaterOrEqual, 3),
                                      .not(.comparison(attribute: "b", .equal, false))),
                                 .isNil(attribute: "c")))
        #expect(predicate.attributeNames == ["a", "b", "c"])
        #expect(predicate.description == "((a >= 3 && !(b == false)) || c is nil)")
    }

    @Test("integers and doubles compare exactly by value", arguments: [
        (Value.int(3), Value.double(3.0), 0), (.int(3), .double(3.5), -1), (.int(-3), .double(-3.5), 1),
        (.int(.max), .double(9_223_372_036_854_775_807.0), -1), (.int(.min), .double(-9_223_372_036_854_775_808.0), 0),
        (.int(9_007_199_254_740_993), .double(9_007_199_254_740_992.0), 1), (.int(0), .double(-0.0), 0),
        (.int(5), .double(.infinity), -1), (.int(5), .double(-.infinity), 1), (.int(.min), .double(.nan), 1),
        (.double(.nan), .double(.nan), 0), (.double(.nan), .double(-.infinity), -1), (.double(-0.0), .double(0.0), 0),
    ])
    func numericOrder(lhs: Value, rhs: Value, expected: Int) {
        #expect(ValueSemantics.order(lhs, rhs) == expected)
        #expect(ValueSemantics.order(rhs, lhs) == -expected)
    }

    @Test("values of different classes are never equal or ordered")
    func classes() {
        #expect(ValueSemantics.order(.bool(true), .int(1)) == nil)
        #expect(ValueSemantics.order(.string("1"), .int(1)) == nil)
        #expect(ValueSemantics.order(.date(Date(timeIntervalSinceReferenceDate: 1)), .double(1)) == nil)
        #expect(!ValueSemantics.equals(.array([1]), .array([1.0])))
        #expect(ValueSemantics.equals(.array([1]), .array([1])))
        #expect(ValueSemantics.order(.array([1]), .array([2])) == nil)
    }

    @Test("sorting ranks null, bool, number, date, string, bytes, array, object")
    func sortRanks() {
        let values: [Value?] = [.object([:]), .array([]), .bytes([]), .string(""), .date(Date()), .int(0), .bool(false), nil]
        let sorted = values.sorted { ValueSemantics.sortOrder($0, $1) < 0 }
        #expect(sorted.map { $0?.kind ?? .null } == [.null, .bool, .int, .date, .string, .bytes, .array, .object])
    }

    @Test("comparisons with missing and null attributes")
    func nulls() {
        #expect(!(DataStorePredicate.attribute("missing") == 1).matches(item))
        #expect((DataStorePredicate.attribute("missing") != 1).matches(item))
        #expect((DataStorePredicate.attribute("missing") == .null).matches(item))
        #expect(!(DataStorePredicate.attribute("int") == .null).matches(item))
        #expect((DataStorePredicate.attribute("int") != .null).matches(item))
        #expect(!(DataStorePredicate.attribute("missing") < 1).matches(item))
        #expect(!(DataStorePredicate.attribute("int") < .null).matches(item))
        #expect(DataStorePredicate.attribute("missing").isIn([1, .null]).matches(item))
    }

    @Test("NaN equals NaN and is below every number; -0.0 equals 0")
    func specialDoubles() {
        #expect((DataStorePredicate.attribute("nan") == .double(.nan)).matches(item))
        #expect((DataStorePredicate.attribute("nan") < .double(-.infinity)).matches(item))
        #expect((DataStorePredicate.attribute("negZero") == 0).matches(item))
        #expect((DataStorePredicate.attribute("negZero") == 0.0).matches(item))
        #expect((DataStorePredicate.attribute("big") > 9.2e18).matches(item))
    }

    @Test("string and bytes operators work on bytes")
    func text() {
        #expect(DataStorePredicate.attribute("string").contains("bc").matches(item))
        #expect(DataStorePredicate.attribute("string").beginsWith("").matches(item))
        #expect(!DataStorePredicate.attribute("string").endsWith("abcd").matches(item))
        #expect(DataStorePredicate.attribute("bytes").beginsWith(.bytes([1])).matches(item))
        #expect(!DataStorePredicate.attribute("bytes").contains("\u{1}").matches(item))
        #expect(!DataStorePredicate.attribute("int").contains("3").matches(item))
        #expect((DataStorePredicate.attribute("string") < "abd").matches(item))
        #expect((DataStorePredicate.attribute("string") > "ab").matches(item))
    }

    @Test("request ordering breaks ties by identifier and applies offset and limit")
    func requestApply() {
        let items = (0..<10).map { Item(itemType: "T", id: .int(Int64(9 - $0)), attributes: ["g": .int(Int64($0 % 3))]) }
        var request = DataStoreRequest(itemType: "T")
        request.sortDescriptors = [.descending("g")]
        request.offset = 2
        request.limit = 3
        // g = 2: ids 1, 4, 7; g = 1: ids 2, 5, 8; g = 0: ids 0, 3, 6, 9
        #expect(request.apply(to: items).map(\.id) == [.int(7), .int(2), .int(5)])
    }

    @Test("fuzzer finding: an offset above 0 with a limit near Int.max returns the rest instead of overflowing")
    func windowNearIntMax() {
        let items = (0..<4).map { Item(itemType: "T", id: .int(Int64($0))) }
        for (offset, limit, expected) in [(1, Int.max, [1, 2, 3]), (3, Int.max - 2, [3]), (Int.max, Int.max, []), (2, Int.max / 2 + 1, [2, 3])] {
            let request = DataStoreRequest(itemType: "T", offset: offset, limit: limit)
            #expect(request.apply(to: items).map(\.id) == expected.map { .int(Int64($0)) }, "offset \(offset), limit \(limit)")
            #expect(request.window(items) == request.apply(to: items))
        }
    }
}
