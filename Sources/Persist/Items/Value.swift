import Foundation

/// One attribute value of an ``Item``.
///
/// `Value` covers every kind of data a store keeps: null, booleans, 64-bit integers, doubles,
/// exact decimals, strings, raw bytes, dates, and nested arrays and string-keyed objects, so that
/// Codable models with nested structs round-trip through every wrapper.
///
/// Literals build values directly:
///
/// ```swift
/// var item = Item(itemType: "Restaurant")
/// item["name"] = "Pizza Place"      // .string
/// item["rating"] = 4                 // .int
/// item["open"] = true                // .bool
/// item["score"] = 4.5                // .double
/// item["price"] = .decimal(Decimal(string: "12345678901234567.89")!)   // exact
/// item["tags"] = ["wood-fired", 2]   // .array
/// ```
///
/// Equality is *identity of the stored data*, strict enough to prove a round trip lossless:
/// kinds must match (`.int(1) != .double(1)`), doubles compare bit for bit (`-0.0` differs from
/// `0.0`) except that every NaN equals every other NaN, and strings and object keys compare by
/// their UTF-8 bytes (so precomposed and decomposed forms of the same character differ, although
/// Swift's `String` equality would call them equal). Predicates use the looser
/// comparison semantics described in <doc:PredicateSemantics>.
public enum Value: Sendable {
    /// No value. Top-level attributes never hold `.null`: setting one to `.null` removes it.
    case null
    /// A boolean.
    case bool(Bool)
    /// A signed 64-bit integer.
    case int(Int64)
    /// A double-precision floating-point number, including NaN, infinities and `-0.0`.
    case double(Double)
    /// An exact decimal number (up to 38 significant digits, as `Decimal` holds): money and
    /// `numeric(p,s)` columns, which never go through a double. Two decimals are equal when their
    /// numbers are (`1.50` and `1.5` are one value); every NaN equals every other NaN.
    case decimal(Decimal)
    /// A Unicode string, which may contain NUL characters.
    case string(String)
    /// Raw bytes.
    case bytes([UInt8])
    /// A point in time, stored with the full precision of `Date`.
    case date(Date)
    /// An ordered list of values.
    case array([Value])
    /// A string-keyed dictionary of values.
    case object([String: Value])
}

extension Value {
    /// The kind of a value, without its payload.
    ///
    /// ```swift
    /// let value: Value = 4
    /// assert(value.kind == .int)
    /// ```
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        case null, bool, int, double, string, bytes, date, array, object
        /// An exact decimal number. Declared last, so that kinds recorded by number keep their meaning.
        case decimal
    }

    /// The kind of this value.
    ///
    /// ```swift
    /// Value.int(4).kind   // .int
    /// ```
    public var kind: Kind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .decimal: .decimal
        case .string: .string
        case .bytes: .bytes
        case .date: .date
        case .array: .array
        case .object: .object
        }
    }

    /// `true` for `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// How many levels of arrays and objects the value nests: 0 for a scalar, 1 for a flat array.
    ///
    /// ```swift
    /// let nested: Value = [[1], ["a": []]]
    /// assert(nested.nestingDepth == 3)
    /// ```
    public var nestingDepth: Int {
        switch self {
        case .array(let elements): 1 + (elements.map(\.nestingDepth).max() ?? 0)
        case .object(let entries): 1 + (entries.values.map(\.nestingDepth).max() ?? 0)
        default: 0
        }
    }

    /// The boolean payload, or `nil` for any other kind.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer payload, or `nil` for any other kind.
    public var intValue: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The double payload, or `nil` for any other kind.
    public var doubleValue: Double? {
        if case .double(let value) = self { return value }
        return nil
    }

    /// The decimal payload, or `nil` for any other kind.
    public var decimalValue: Decimal? {
        if case .decimal(let value) = self { return value }
        return nil
    }

    /// The string payload, or `nil` for any other kind.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The bytes payload, or `nil` for any other kind.
    public var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    /// The date payload, or `nil` for any other kind.
    public var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The array payload, or `nil` for any other kind.
    public var arrayValue: [Value]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object payload, or `nil` for any other kind.
    public var objectValue: [String: Value]? {
        if case .object(let value) = self { return value }
        return nil
    }
}

extension Value {
    /// Makes an integer value from any fixed-width integer that fits in 64 signed bits.
    ///
    /// ```swift
    /// let count = Value(42)       // .int(42)
    /// ```
    public init(_ value: Int) { self = .int(Int64(value)) }
    /// Makes a double value.
    public init(_ value: Double) { self = .double(value) }
    /// Makes a string value.
    public init(_ value: String) { self = .string(value) }
    /// Makes a boolean value.
    public init(_ value: Bool) { self = .bool(value) }
    /// Makes a date value.
    public init(_ value: Date) { self = .date(value) }
    /// Makes an exact decimal value.
    public init(_ value: Decimal) { self = .decimal(value) }
    /// Makes a bytes value from `Data`.
    public init(_ value: Data) { self = .bytes([UInt8](value)) }
}

extension Value: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// An integer value from an integer literal.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A double value from a floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A boolean value from `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A string value from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array value from an array literal.
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    /// An object value from a dictionary literal.
    public init(dictionaryLiteral elements: (String, Value)...) {
        var object: [String: Value] = [:]
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}

extension Value: Hashable {
    /// Identity of the stored data: same kind, doubles bit for bit (NaN equals NaN), strings by UTF-8 bytes.
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return Value.identical(a, b)
        case (.decimal(let a), .decimal(let b)): return a.isNaN ? b.isNaN : (!b.isNaN && a == b)
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.date(let a), .date(let b)):
            return Value.identical(a.timeIntervalSinceReferenceDate, b.timeIntervalSinceReferenceDate)
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return Value.identical(a, b)
        default: return false
        }
    }

    /// Hashes the same data that `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        switch self {
        case .null: break
        case .bool(let value): hasher.combine(value)
        case .int(let value): hasher.combine(value)
        case .double(let value): hasher.combine(Value.identityBits(value))
        case .decimal(let value): hasher.combine(value.isNaN ? Decimal.nan : value)
        case .string(let value):
            hasher.combine(value.utf8.count)
            for byte in value.utf8 { hasher.combine(byte) }
        case .bytes(let value): hasher.combine(value)
        case .date(let value): hasher.combine(Value.identityBits(value.timeIntervalSinceReferenceDate))
        case .array(let value): hasher.combine(value)
        case .object(let value): hasher.combine(value)
        }
    }

    /// Bit-exact equality of doubles in which every NaN equals every other NaN.
    static func identical(_ a: Double, _ b: Double) -> Bool {
        if a.isNaN || b.isNaN { return a.isNaN && b.isNaN }
        return a.bitPattern == b.bitPattern
    }

    /// Objects with the same entries, keys compared by their UTF-8 bytes. A dictionary looks keys
    /// up by `String` equality, under which canonically equivalent keys such as `"é"` and
    /// `"e\u{301}"` are one key, so a key found must also have the very same bytes. (Hashing by
    /// the dictionary's own hash stays consistent: this equality only ever says less.)
    static func identical(_ a: [String: Value], _ b: [String: Value]) -> Bool {
        guard a.count == b.count else { return false }
        for (key, value) in a {
            guard let index = b.index(forKey: key), b[index].key.utf8.elementsEqual(key.utf8), b[index].value == value else {
                return false
            }
        }
        return true
    }

    /// The bit pattern used for hashing: one canonical pattern for all NaNs.
    static func identityBits(_ value: Double) -> UInt64 {
        value.isNaN ? Double.nan.bitPattern : value.bitPattern
    }
}

extension Value: CustomStringConvertible {
    /// A compact, readable rendering, for messages and logs.
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .decimal(let value): return "decimal(\(value))"
        case .string(let value): return String(reflecting: value)
        case .bytes(let value): return "<" + value.map { String(format: "%02x", $0) }.joined() + ">"
        case .date(let value): return "@" + String(value.timeIntervalSinceReferenceDate)
        case .array(let value): return "[" + value.map(\.description).joined(separator: ", ") + "]"
        case .object(let value):
            let body = value.keys.sorted().map { "\(String(reflecting: $0)): \(value[$0]?.description ?? "null")" }
            return "{" + body.joined(separator: ", ") + "}"
        }
    }
}

extension Value.Kind {
    /// The kind with its indefinite article, for messages: "an int value", "a string value".
    package var withArticle: String {
        switch self {
        case .int, .array, .object: "an \(rawValue)"
        default: "a \(rawValue)"
        }
    }
}
