import Persist

/// What a column created by the store holds, as recorded in its metadata table.
///
/// Integers and doubles share one kind, `number`, so a numeric attribute may hold both.
enum ColumnKind: String, Sendable, CaseIterable {
    case bool, number, date, string, bytes, array, object
    /// Exact decimals, kept as their digits.
    case decimal

    /// The kind recorded for a column that holds values of several kinds (see ``MixedCodec``).
    static let mixedName = "mixed"

    /// The kind a value needs its column to have; `nil` for `.null`, which fits every column.
    init?(of value: Value) {
        switch value {
        case .null: return nil
        case .bool: self = .bool
        case .int, .double: self = .number
        case .decimal: self = .decimal
        case .date: self = .date
        case .string: self = .string
        case .bytes: self = .bytes
        case .array: self = .array
        case .object: self = .object
        }
    }

    /// Whether SQLite keeps values of this kind in their own storage class (INTEGER or REAL,
    /// TEXT, BLOB), so that a column may hold several such kinds and still read each back exactly.
    var isNative: Bool { self == .number || self == .string || self == .bytes }

    /// Whether the column stores reals with the `'NaN'` text marker (numbers and dates).
    var isRealLike: Bool { self == .number || self == .date }

    /// Whether values of this kind are ordered by `<` and friends (arrays and objects are not).
    var isOrdered: Bool { self != .array && self != .object }

    /// The kind's name in messages: "numbers", "strings", …
    var plural: String {
        switch self {
        case .bool: "booleans"
        case .number: "numbers"
        case .decimal: "decimals"
        case .date: "dates"
        case .string: "strings"
        case .bytes: "bytes"
        case .array: "arrays"
        case .object: "objects"
        }
    }
}
