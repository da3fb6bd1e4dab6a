import Foundation

/// The identifier of an ``Item`` within its item type.
///
/// Identifiers are strings (new items get a UUID string), 64-bit integers (legacy
/// `INTEGER PRIMARY KEY` tables keep their integer keys) or raw bytes (keys of foreign
/// key-value files). The three kinds never equal each other: `.int(5)` and `.string("5")` are two
/// different identifiers.
///
/// ```swift
/// let generated = ItemID.generate()       // .string("6F9619FF-8B86-D011-B42D-00CF4FC964FF")
/// let legacy: ItemID = 42                  // .int(42)
/// let named: ItemID = "margherita"         // .string("margherita")
/// ```
///
/// Identifiers are ordered: all integers first (numerically), then all strings (by UTF-8 bytes),
/// then all byte strings (lexicographically). Request results use this order to break ties.
public enum ItemID: Sendable {
    /// A string identifier. Compared by its UTF-8 bytes.
    case string(String)
    /// An integer identifier.
    case int(Int64)
    /// A raw byte-string identifier.
    case bytes([UInt8])

    /// A new, random identifier: a UUID string.
    public static func generate() -> ItemID {
        .string(UUID().uuidString)
    }

    /// The identifier as an attribute ``Value`` (`.string`, `.int` or `.bytes`).
    public var value: Value {
        switch self {
        case .string(let string): .string(string)
        case .int(let int): .int(int)
        case .bytes(let bytes): .bytes(bytes)
        }
    }

    /// Makes an identifier from a `.string`, `.int` or `.bytes` value; `nil` for any other kind.
    public init?(_ value: Value) {
        switch value {
        case .string(let string): self = .string(string)
        case .int(let int): self = .int(int)
        case .bytes(let bytes): self = .bytes(bytes)
        default: return nil
        }
    }
}

extension ItemID: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    /// A string value from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value from an integer literal.
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension ItemID: Hashable {
    /// Identifiers are equal when of the same kind and equal payload (strings by UTF-8 bytes).
    public static func == (lhs: ItemID, rhs: ItemID) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
        case (.int(let a), .int(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        default: false
        }
    }

    /// Hashes the same data that `==` compares.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let string):
            hasher.combine(0 as UInt8)
            hasher.combine(string.utf8.count)
            for byte in string.utf8 { hasher.combine(byte) }
        case .int(let int):
            hasher.combine(1 as UInt8)
            hasher.combine(int)
        case .bytes(let bytes):
            hasher.combine(2 as UInt8)
            hasher.combine(bytes)
        }
    }
}

extension ItemID: Comparable {
    /// Integers first (numerically), then strings (by UTF-8 bytes), then bytes (lexicographically).
    public static func < (lhs: ItemID, rhs: ItemID) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return a < b
        case (.string(let a), .string(let b)): return ByteOrder.compare(a, b) < 0
        case (.bytes(let a), .bytes(let b)): return ByteOrder.compare(a, b) < 0
        default: return lhs.rank < rhs.rank
        }
    }

    private var rank: Int {
        switch self {
        case .int: 0
        case .string: 1
        case .bytes: 2
        }
    }
}

extension ItemID: CustomStringConvertible {
    /// The identifier as text: strings quoted, integers bare, bytes in hex between angle brackets.
    public var description: String { value.description }
}
