import Foundation
import Persist
import Testing

/// Exact decimals (`Value.decimal`): kept digit for digit, equal by number, compared and sorted
/// with integers and doubles as numbers (``ValueSemantics``), in predicates and unique indexes.
enum ExactDecimalTests {
    /// The decimal `text` spells exactly.
    static func decimal(_ text: String) throws -> Decimal {
        guard let parsed = DecimalText.parse(text) else { throw DataStoreError(.invalidArgument, "\(text) is no exact decimal") }
        return parsed
    }

    static func amount(_ id: ItemID, _ value: Value) -> Item {
        Item(itemType: "Amount", id: id, attributes: ["n": value])
    }

    static func ids(_ store: any DataStore, _ request: DataStoreRequest) throws -> [ItemID] {
        try store.read { try $0.items(forRequest: request) }.map(\.id)
    }

    static func matching(_ predicate: DataStorePredicate) -> DataStoreRequest {
        var request = DataStoreRequest(itemType: "Amount")
        request.filter = predicate
        return request
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("a 38-digit decimal comes back exactly; 1.50 is 1.5; NaN and negative zero come back as themselves",
                        group: .items) { context in
            let store = try context.makeStore()
            let widest = try decimal("12345678901234567890123456789012345678")
            let money = try decimal("12345678901234567.89")
            let tiny = try decimal("-0.00000000000000000000000000000000001")
            let negativeZero = Decimal(sign: .minus, exponent: 0, significand: 0)
            try seed(store, [
                amount(1, .decimal(widest)), amount(2, .decimal(money)), amount(3, .decimal(tiny)),
                amount(4, .decimal(try decimal("1.50"))), amount(5, .decimal(.nan)), amount(6, .decimal(negativeZero)),
            ])
            let items = try allItems(store, "Amount")
            #expect(items.map { $0["n"]?.kind } == Array(repeating: .decimal, count: 6))
            #expect(items.map { $0["n"]?.decimalValue.map(DecimalText.text) } == [
                "12345678901234567890123456789012345678", "12345678901234567.89",
                "-0.00000000000000000000000000000000001", "1.5", "NaN", "0",
            ])
            #expect(items[3]["n"] == .decimal(try decimal("1.5")))
            #expect(items[4]["n"]?.decimalValue?.isNaN == true)
            #expect(items[5]["n"]?.decimalValue?.isZero == true)
            #expect(try ids(store, matching(.attribute("n") == .decimal(try decimal("1.5")))) == [4])
            #expect(try ids(store, matching(.attribute("n") == .decimal(.nan))) == [5])
            #expect(try ids(store, matching(.attribute("n") == .double(-0.0))) == [6])
            #expect(try ids(store, matching(.attribute("n") == .decimal(money))) == [2])
            #expect(try ids(store, matching(.attribute("n") == .decimal(widest))) == [1])
        },
        ConformanceTest("decimals compare and sort with integers and doubles as numbers, NaN lowest, ties by identifier",
                        group: .requests) { context in
            let store = try context.makeStore()
            try seed(store, [
                amount(1, .decimal(try decimal("2.00"))), amount(2, .int(2)), amount(3, .double(1.5)),
                amount(4, .decimal(try decimal("1.25"))), amount(5, .double(.nan)), amount(6, .decimal(.nan)),
                amount(7, .decimal(try decimal("-99999999999999999999999999999999999999"))), amount(8, .int(-3)),
                amount(9, .decimal(try decimal("0.1"))), amount(10, .double(0.1)), amount(11, .double(.infinity)),
                amount(12, .decimal(try decimal("9223372036854775808"))), amount(13, .int(.max)), amount(14, "text"),
            ])
            var ascending = DataStoreRequest(itemType: "Amount")
            ascending.setSort(byKey: "n", ascending: true)
            let sorted = try ids(store, ascending)
            #expect(Array(sorted.prefix(13)) == [5, 6, 7, 8, 9, 10, 4, 3, 1, 2, 13, 12, 11])
            #expect(try ids(store, matching(.attribute("n") == 2)) == [1, 2])
            #expect(try ids(store, matching(.attribute("n") == 0.1)) == [9, 10])
            #expect(try ids(store, matching(.attribute("n") > .decimal(try decimal("1.3")))) == [1, 2, 3, 11, 12, 13])
            // NaN is below every other number, in predicates as in sorting.
            #expect(try ids(store, matching(.attribute("n") < .decimal(try decimal("1.5")))) == [4, 5, 6, 7, 8, 9, 10])
            #expect(try ids(store, matching(.attribute("n") > .int(.max))) == [11, 12])
            let listed = DataStorePredicate.isIn(attribute: "n", [.double(1.25), .decimal(try decimal("1.5")), .decimal(2)])
            #expect(try ids(store, matching(listed)) == [1, 2, 3, 4])
            #expect(try store.read { try $0.countItems(forRequest: matching(.attribute("n") >= .decimal(0))) } == 9)
        },
        ConformanceTest("a unique index treats a decimal and an integer or double of the same number as equal", group: .indexes) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor in _ = try accessor.ensureIndex(ofType: "Amount", on: ["n"], unique: true) }
            try seed(store, [amount(1, .decimal(try decimal("1.5"))), amount(2, .int(2))])
            expectError(.uniqueViolation) { try seed(store, [amount(3, .double(1.5))]) }
            expectError(.uniqueViolation) { try seed(store, [amount(3, .decimal(try decimal("2.00")))]) }
            expectError(.uniqueViolation) { try seed(store, [amount(3, .decimal(try decimal("1.50")))]) }
            try seed(store, [amount(3, .decimal(try decimal("1.51"))), amount(4, .double(2.5))])
            #expect(try allItems(store, "Amount").map(\.id) == [1, 2, 3, 4])
            #expect(try ids(store, matching(.attribute("n") == 1.5)) == [1])
        },
        ConformanceTest("decimals survive tearDown and reopening", group: .items, requires: [.persistent]) { context in
            let first = try context.makeStore()
            let stored = [amount(1, .decimal(try decimal("12345678901234567.89"))), amount(2, ["nested": .decimal(try decimal("-1.5"))])]
            try seed(first, stored)
            try first.tearDown()
            let second = try context.makeStore()
            #expect(try allItems(second, "Amount") == stored)
        },
    ]
}
