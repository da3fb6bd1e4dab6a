import Foundation
import Persist

/// A small, seedable random number generator (SplitMix64), so that a failing differential run
/// can be repeated exactly from its seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random items and requests for the differential test.
///
/// Each attribute keeps one kind per item type (plus missing values), as stores with typed
/// columns require; values come from small pools full of edge cases so that ties, duplicates,
/// NaN, signed zeros, NULs and canonically equivalent strings meet every operator.
public struct RandomData {
    var generator: SeededGenerator

    /// Random data fixed by `seed`.
    public init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    static let itemTypes = ["Alpha", "Beta"]
    /// Attribute name → the pool its values come from.
    static let schema: [(name: String, pool: [Value])] = [
        ("i", ints), ("d", doubles), ("s", strings), ("b", [false, true]), ("t", dates), ("x", bytes),
        ("n", nested), ("o", objects),
    ]
    static let ints: [Value] = [-3, -1, 0, 0, 1, 2, 2, 3, .int(.min), .int(.max), .int(9_007_199_254_740_993)]
    static let doubles: [Value] = [
        -2.5, -0.0, 0.0, 1.0, 2.0, 2.5, 3.0, .double(.nan), .double(.infinity), .double(-.infinity), 1e300, 0.1,
        .double(9_007_199_254_740_992), .double(-9_223_372_036_854_775_808),
    ]
    static let strings: [Value] = [
        "", "a", "A", "ab", "b", "ab c", "\u{e9}", "e\u{301}", "a\u{0}b", "a\u{0}", "𝄞", "Zebra", "zebra", "10", "9",
    ]
    static let dates: [Value] = [0, 1, -1, 1e9, 1e9, 0.5].map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
    static let bytes: [Value] = [.bytes([]), .bytes([0]), .bytes([0, 1]), .bytes([1]), .bytes([255]), .bytes([0, 0]), .bytes([97])]
    static let nested: [Value] = [[], [1], [1.0], ["a"], [[1]], [.null], [1, "a"]]
    static let objects: [Value] = [[:], ["a": 1], ["a": 1.0], ["b": [1]], ["a": 1, "b": "c"]]

    mutating func pick<T>(_ list: [T]) -> T {
        list[Int.random(in: 0..<list.count, using: &generator)]
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &generator) < probability
    }

    /// `count` items of each item type, with unique identifiers of all three kinds.
    public mutating func items(perType count: Int) -> [Item] {
        var items: [Item] = []
        for itemType in Self.itemTypes {
            for index in 0..<count {
                let id: ItemID
                switch index % 3 {
                case 0: id = .int(Int64(index * 7 % 101) - 50)
                case 1: id = .string(pick(["k", "K", "é", "a\u{0}"]) + String(index))
                default: id = .bytes([UInt8(index % 256), UInt8(index / 256)])
                }
                var attributes: [String: Value] = [:]
                for (name, pool) in Self.schema where chance(0.8) {
                    attributes[name] = pick(pool)
                }
                items.append(Item(itemType: itemType, id: id, attributes: attributes))
            }
        }
        return items
    }

    /// A random literal for comparing with attribute `name`: usually of its kind, sometimes not.
    mutating func literal(for name: String) -> Value {
        if chance(0.05) { return .null }
        if chance(0.12) { return pick(pick(Self.schema).pool) }
        switch name {
        case "i", "d": return pick(Self.ints + Self.doubles)
        default: return pick(Self.schema.first { $0.name == name }?.pool ?? Self.ints)
        }
    }

    mutating func attributeName() -> String {
        chance(0.06) ? "missing" : pick(Self.schema).name
    }

    mutating func predicate(depth: Int) -> DataStorePredicate {
        if depth > 0 && chance(0.45) {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: return predicate(depth: depth - 1) && predicate(depth: depth - 1)
            case 1: return predicate(depth: depth - 1) || predicate(depth: depth - 1)
            default: return !predicate(depth: depth - 1)
            }
        }
        let name = attributeName()
        switch Int.random(in: 0..<10, using: &generator) {
        case 0:
            return .isNil(attribute: name)
        case 1:
            let count = Int.random(in: 0...3, using: &generator)
            return .isIn(attribute: name, (0..<count).map { _ in literal(for: name) })
        case 2, 3:
            let textName = chance(0.8) ? pick(["s", "x"]) : name
            let operand: Value = textName == "x" ? pick(Self.bytes) : pick(Self.strings + ["b", "é"])
            return .text(attribute: textName, pick(DataStorePredicate.TextOperator.allCases), operand)
        default:
            return .comparison(attribute: name, pick(DataStorePredicate.ComparisonOperator.allCases), literal(for: name))
        }
    }

    /// A random request over one of the item types.
    public mutating func request(itemCount: Int) -> DataStoreRequest {
        var request = DataStoreRequest(itemType: chance(0.97) ? pick(Self.itemTypes) : "Gamma")
        if chance(0.85) { request.filter = predicate(depth: 3) }
        let sortCount = Int.random(in: 0...3, using: &generator)
        request.sortDescriptors = (0..<sortCount).map { _ in DataStoreSortDescriptor(key: attributeName(), ascending: chance(0.5)) }
        if chance(0.4) { request.offset = Int.random(in: 0...(itemCount + 2), using: &generator) }
        if chance(0.5) { request.limit = Int.random(in: 0...(itemCount + 2), using: &generator) }
        return request
    }
}
