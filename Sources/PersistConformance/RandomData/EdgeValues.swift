import Foundation
import Persist

/// Values every store must keep bit for bit: NaNs, infinities, -0.0, Int64.min and max, strings
/// with NUL and astral-plane characters, empty strings and bytes, extreme dates, nested values.
///
/// ```swift
/// for value in EdgeValues.all { try seed(store, [Item(itemType: "Edge", id: 1, attributes: ["v": value])]) }
/// ```
public enum EdgeValues {
    /// Every edge case, each of one `Value` kind.
    public static let all: [Value] = [
        .bool(false), .bool(true),
        .int(0), .int(-1), .int(.min), .int(.max), .int(1 << 53 + 1),
        .double(0), .double(-0.0), .double(.nan), .double(-.nan), .double(.signalingNaN), .double(.infinity),
        .double(-.infinity), .double(.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude), .double(0.1),
        .double(-1e-300), .double(Double(Int64(1) << 53) + 2),
        .string(""), .string("plain"), .string("with\u{0}nul\u{0}"), .string("𝄞🎉 astral"), .string("e\u{301}"),
        .string("\u{e9}"), .string("line\nbreak\ttab'quote\"double"), .string(String(repeating: "long ", count: 2000)),
        .bytes([]), .bytes([0]), .bytes([0xff, 0xfe, 0, 1]), .bytes(Array(0...255)),
        .date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: -1e9 + 0.123456789)),
        .date(Date(timeIntervalSince1970: 1_700_000_000.000_001)), .date(.distantPast), .date(.distantFuture),
        .array([]), .array([.null, 1, 1.5, "s", .bytes([1]), .bool(true), .date(Date(timeIntervalSinceReferenceDate: 5))]),
        .array([.array([.array([.object(["deep": .array([.int(.min)])])])])]),
        .object([:]), .object(["": 1, "a": .null, "nested": .object(["x": .double(-0.0), "y": .double(.nan)])]),
        .object(["k\u{0}": "nul key", "𝄞": ["astral key"]]),
        deeplyNested(depth: 64),
    ]

    /// A string inside `depth` levels of arrays and objects, alternating.
    public static func deeplyNested(depth: Int) -> Value {
        var value: Value = "bottom"
        for level in 0..<depth {
            value = level.isMultiple(of: 2) ? .array([value]) : .object(["level\(level)": value])
        }
        return value
    }
}
