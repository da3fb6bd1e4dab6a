import Foundation

/// The identifier of an ``Item`` within its item type.
///
/// Identifiers are strings (new items get a UUID string), 64-bit integers (legacy
/// `INTEGER PRIMARY KEY` tables keep their integer keys), raw bytes (keys of foreign
/// key-value files), or several of these in key order (rows of a table whose primary key has
/// several columns). The kinds never equal each other: `.int(5)` and `.string("5")` are two
/// different identifiers, and so are `.int(5)` and `.composite([.int(5)])`.
///
/// ```swift
/// let generated = ItemID.generate()       // .string("6F9619FF-8B86-D011-B42D-00CF4FC964FF")
/// let legacy: ItemID = 42                  // .int(42)
/// let named: ItemID = "margherita"         // .string("margherita")
/// let line = try ItemID(components: [1, 3402])   // a playlist's track, keyed (playlist, track)
/// ```
///
/// Identifiers are ordered: all integers first (numerically), then all strings (by UTF-8 bytes),
/// then all byte strings (lexicographically), then all composite identifiers (component by
/// component, a shorter one first when it is a prefix of a longer one). Request results use this
/// order to break ties.
public enum ItemID: Sendable {
    /// A string identifier. Compared by its UTF-8 bytes.
    case string(String)
    /// An integer identifier.
    case int(Int64)
    /// A raw byte-string identifier.
    case bytes([UInt8])
    /// Several identifiers in key order: the primary key of a table keyed by several columns.
    /// Each component is a `.string`, `.int` or `.bytes` identifier, and there are at least two;
    /// ``init(components:)`` checks both.
    case composite([ItemID])

    /// A new, random identifier: a UUID string.
    public static func generate() -> ItemID {
        .string(UUID().uuidString)
    }

    /// A composite identifier from its components in key order.
    ///
    /// ```swift
    /// let line = try ItemID(components: [1, 3402])   // .composite([.int(1), .int(3402)])
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/invalidArgument`` for fewer than two components or a
    ///   component that is itself composite.
    public init(components: [ItemID]) throws {
        guard components.count >= 2 else {
            throw DataStoreError(
                .invalidArgument,
                "a composite identifier needs at least two components; \(components.count) given (use the component itself for one)")
        }
        if let nested = components.first(where: \.isComposite) {
            throw DataStoreError(.invalidArgument, "a component of a composite identifier cannot be composite: \(nested)")
        }
        self = .composite(components)
    }

    /// The components in key order: the identifier itself unless it is composite.
    ///
    /// ```swift
    /// ItemID.int(7).components   // [.int(7)]
    /// ```
    public var components: [ItemID] {
        if case .composite(let components) = self { return components }
        return [self]
    }

    /// Whether the identifier is made of several components.
    public var isComposite: Bool {
        if case .composite = self { return true }
        return false
    }

    /// The identifier as an attribute ``Value``: `.string`, `.int` or `.bytes`, and for a
    /// composite identifier an `.array` of its components' values.
    public var value: Value {
        switch self {
        case .string(let string): .string(string)
        case .int(let int): .int(int)
        case .bytes(let bytes): .bytes(bytes)
        case .composite(let components): .array(components.map(\.value))
        }
    }

    /// Makes an identifier from a `.string`, `.int` or `.bytes` value; `nil` for any other kind.
    /// (An array is not read as a composite identifier; use ``init(components:)``.)
    public init?(_ value: Value) {
        switch value {
        case .string(let string): self = .string(string)
        case .int(let int): self = .int(int)
        case .bytes(let bytes): self = .bytes(bytes)
        default: return nil
        }
    }

    /// Makes an identifier from a value that ``value`` gave: a `.string`, `.int` or `.bytes`
    /// value, or an array of at least two of them for a composite identifier; `nil` otherwise.
    ///
    /// ```swift
    /// ItemID(identifierValue: [1, 3402])   // .composite([.int(1), .int(3402)])
    /// ```
    public init?(identifierValue value: Value) {
        if case .array(let elements) = value {
            var components: [ItemID] = []
            components.reserveCapacity(elements.count)
            for element in elements {
                guard let component = ItemID(element) else { return nil }
                components.append(component)
            }
            guard components.count >= 2 else { return nil }
            self = .composite(components)
        } else {
            self.init(value)
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
        case (.composite(let a), .composite(let b)): a == b
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
        case .composite(let components):
            hasher.combine(3 as UInt8)
            hasher.combine(components)
        }
    }
}

extension ItemID: Comparable {
    /// Integers first (numerically), then strings (by UTF-8 bytes), then bytes (lexicographically),
    /// then composite identifiers (component by component; a prefix first).
    public static func < (lhs: ItemID, rhs: ItemID) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return a < b
        case (.string(let a), .string(let b)): return ByteOrder.compare(a, b) < 0
        case (.bytes(let a), .bytes(let b)): return ByteOrder.compare(a, b) < 0
        case (.composite(let a), .composite(let b)): return a.lexicographicallyPrecedes(b)
        default: return lhs.rank < rhs.rank
        }
    }

    private var rank: Int {
        switch self {
        case .int: 0
        case .string: 1
        case .bytes: 2
        case .composite: 3
        }
    }
}

extension ItemID: CustomStringConvertible {
    /// The identifier as text: strings quoted, integers bare, bytes in hex between angle brackets,
    /// a composite identifier's components between parentheses: `(1, 3402)`.
    public var description: String {
        if case .composite(let components) = self {
            return "(" + components.map(\.description).joined(separator: ", ") + ")"
        }
        return value.description
    }
}
