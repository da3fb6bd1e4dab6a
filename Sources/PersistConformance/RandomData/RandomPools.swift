import Foundation
import Persist

/// The edge cases ``RandomData`` draws its values, names and identifiers from.
enum RandomPools {
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
    static let intsAndDoubles = ints + doubles
    /// Exact decimals ``RandomExtras/decimals`` mixes in: equal to pooled integers and doubles
    /// (`2.00`, `0.1`, `-2.5`), just apart from them, NaN, zero, and more digits than a double keeps.
    static let decimals: [Value] = [
        "2.00", "0.1", "-2.5", "2.5000000000000000001", "NaN", "0", "-0.0000000000000000000000000000000000001",
        "9007199254740993", "12345678901234567890123456789012345678", "-12345678901234567.89", "1",
    ].compactMap { DecimalText.parse($0).map(Value.decimal) }
    static let textOperands = strings + ["b", "é"]

    // MARK: The wider pools of `.anything`

    /// Numbers where integers and doubles meet: around 2⁵³, 2⁶³ and the smallest magnitudes.
    static let numericEdges: [Value] = [
        .int(9_007_199_254_740_992), .int(9_007_199_254_740_991), .int(-9_007_199_254_740_993), .int(.max - 1),
        .int(.min + 1), .double(9_007_199_254_740_994), .double(9_223_372_036_854_775_808),
        .double(9_223_372_036_854_774_784), .double(-9_223_372_036_854_777_856), .double(.leastNonzeroMagnitude),
        .double(-.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude), .double(-0.5), .double(0.5),
        .double(-1.5), .double(Double(bitPattern: 0x7FF0_0000_0000_0001)), .double(Double(bitPattern: 0xFFF8_0000_0000_0000)),
    ]
    /// Attribute names, including two canonically equivalent spellings of one name.
    static let attributeNames = ["i", "d", "s", "b", "t", "x", "n", "o", "missing", "\u{e9}", "e\u{301}", "a.b"]
    /// Object keys, including the empty key, a NUL and canonically equivalent spellings.
    static let objectKeys = ["a", "b", "", "\u{e9}", "e\u{301}", "a\u{0}", "𝄞", "A"]
    static let stringIDs = ["k", "K", "é", "e\u{301}", "a\u{0}", "", "10", "9"]
    static let byteIDs: [[UInt8]] = [[], [0], [0, 0], [1], [255], [0, 1]]
    static let intIDs: [Int64] = [.min, -1, 0, 1, 2, 10, .max]
    /// Offsets and limits: small ones, and ones near `Int.max` where arithmetic can overflow.
    static let bigCounts = [Int.max, Int.max - 1, Int.max / 2 + 1, Int(Int32.max), 1 << 62]
}
