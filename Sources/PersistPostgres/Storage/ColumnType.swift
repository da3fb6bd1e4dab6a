import Persist

/// What a column holds: its PostgreSQL type as Persist reads, writes and compares it.
///
/// Columns the store creates get the type their first value's kind asks for (see
/// ``CreatedKind``); columns of adopted tables keep their declared type, mapped as the
/// "PostgreSQL storage format" article describes.
indirect enum ColumnType: Hashable, Sendable {
    case boolean
    case smallint, integer, bigint
    /// `numeric`, with its declared precision and scale when it has them.
    case numeric(precision: Int?, scale: Int?)
    case real, doublePrecision
    /// `text`, or `varchar(maxLength)`; `byteOrdered` when the column's collation compares bytes.
    case text(maxLength: Int?, byteOrdered: Bool)
    /// `char(length)`, which pads with spaces.
    case character(length: Int)
    case bytea
    case date
    case timestamp, timestamptz
    case uuid
    case json, jsonb
    /// `time`, `timetz` and `interval`: strings in PostgreSQL's own output (`04:05:06.5`,
    /// `04:05:06+02`, `1 year 2 mons 3 days 04:05:06`).
    case time, timetz, interval
    /// `inet`, `cidr`, `macaddr` and `macaddr8`: strings as PostgreSQL prints them.
    case inet, cidr, macaddr, macaddr8
    /// An enum type (its OID), read and written as its labels, in their order.
    case enumeration(oid: UInt32, labels: [String])
    /// A one-dimensional array type (its OID) of `element`, read and written as `.array`.
    case array(element: ColumnType, oid: UInt32)
    /// The store's `persist_date` composite: `(at timestamptz, seconds double precision)`.
    case persistDate
    /// An array or object in the binary value encoding, in a `bytea`.
    case encoded(Value.Kind)
    /// Any kind, in the order-preserving encoding of ``MixedValueCoding``, in a `bytea`.
    case mixed

    /// The type for a created column: text compares bytes, everything else as given.
    static let createdText = ColumnType.text(maxLength: nil, byteOrdered: true)

    /// Whether a value this type accepts is stored exactly as the store sends it (after
    /// ``stored(_:)``): not a `numeric`, which rounds to its scale, a `char(n)`, which pads, a
    /// `uuid`, which PostgreSQL writes in its own form, or JSON, which it normalizes.
    var keepsGivenValues: Bool {
        switch self {
        case .numeric, .character, .uuid, .json, .jsonb, .time, .timetz, .interval, .inet, .cidr, .macaddr,
             .macaddr8: false
        case .array(let element, _): element.keepsGivenValues
        default: true
        }
    }

    /// The OID PostgreSQL reports for results of this type (0 for `persist_date`, whose OID
    /// depends on the schema).
    var builtinOID: UInt32 {
        switch self {
        case .boolean: PGType.bool
        case .smallint: PGType.int2
        case .integer: PGType.int4
        case .bigint: PGType.int8
        case .numeric: PGType.numeric
        case .real: PGType.float4
        case .doublePrecision: PGType.float8
        case .text(let maxLength, _): maxLength == nil ? PGType.text : PGType.varchar
        case .character: PGType.bpchar
        case .bytea, .encoded, .mixed: PGType.bytea
        case .date: PGType.date
        case .timestamp: PGType.timestamp
        case .timestamptz: PGType.timestamptz
        case .uuid: PGType.uuid
        case .json: PGType.json
        case .jsonb: PGType.jsonb
        case .time: PGType.time
        case .timetz: PGType.timetz
        case .interval: PGType.interval
        case .inet: PGType.inet
        case .cidr: PGType.cidr
        case .macaddr: PGType.macaddr
        case .macaddr8: PGType.macaddr8
        case .enumeration(let oid, _), .array(_, let oid): oid
        case .persistDate: 0
        }
    }

    /// The kinds of value this column's values have when read.
    var valueKinds: Set<Value.Kind> {
        switch self {
        case .boolean: [.bool]
        case .smallint, .integer, .bigint: [.int]
        case .numeric: [.decimal]
        case .real, .doublePrecision: [.double]
        case .text, .character, .uuid, .time, .timetz, .interval, .inet, .cidr, .macaddr, .macaddr8, .enumeration:
            [.string]
        case .array: [.array]
        case .bytea: [.bytes]
        case .date, .timestamp, .timestamptz, .persistDate: [.date]
        case .json, .jsonb: [.bool, .int, .double, .string, .array, .object]
        case .encoded(let kind): [kind]
        case .mixed: Set(Value.Kind.allCases).subtracting([.null])
        }
    }

    /// Whether requests compare this column's values in Swift rather than in SQL: JSON, the types
    /// read as PostgreSQL's text (times, intervals, network addresses), enums and arrays.
    var isComparedByStore: Bool {
        switch self {
        case .json, .jsonb, .time, .timetz, .interval, .inet, .cidr, .macaddr, .macaddr8, .enumeration, .array: true
        default: false
        }
    }

    /// Whether a value the column keeps reads back as the same kind: not an integer or a double
    /// in a `numeric` column, which reads back as the equal decimal.
    func readsBackKind(of value: Value) -> Bool {
        switch (self, value) {
        case (.numeric, .int), (.numeric, .double): false
        default: true
        }
    }

    /// The range of integers an integer column holds.
    var integerRange: ClosedRange<Int64>? {
        switch self {
        case .smallint: Int64(Int16.min)...Int64(Int16.max)
        case .integer: Int64(Int32.min)...Int64(Int32.max)
        case .bigint: Int64.min...Int64.max
        default: nil
        }
    }
}

/// The kind of a column the store created, recorded in its metadata table.
enum CreatedKind: String, Sendable, CaseIterable {
    case bool, int, double, string, bytes, date, array, object, mixed
    /// `numeric`: exact decimals.
    case decimal

    /// The kind for a new column first given `value`; `nil` for `.null`, which needs no column.
    init?(for value: Value) {
        switch value {
        case .null: return nil
        case .bool: self = .bool
        case .int: self = .int
        case .double: self = .double
        case .decimal: self = .decimal
        case .string(let string): self = string.containsNUL ? .mixed : .string
        case .bytes: self = .bytes
        case .date: self = .date
        case .array: self = .array
        case .object: self = .object
        }
    }

    var columnType: ColumnType {
        switch self {
        case .bool: .boolean
        case .int: .bigint
        case .double: .doublePrecision
        case .string: ColumnType.createdText
        case .bytes: .bytea
        case .date: .persistDate
        case .array: .encoded(.array)
        case .object: .encoded(.object)
        case .mixed: .mixed
        case .decimal: .numeric(precision: nil, scale: nil)
        }
    }

    /// The column's SQL type, for `CREATE TABLE` and `ADD COLUMN`.
    func sqlType(dateType: String) -> String {
        switch self {
        case .bool: "boolean"
        case .int: "bigint"
        case .double: "double precision"
        case .string: "text COLLATE \"C\""
        case .bytes, .array, .object, .mixed: "bytea"
        case .date: dateType
        case .decimal: "numeric"
        }
    }
}

/// The kind of a created table's key column, recorded in its metadata table.
enum KeyKind: String, Sendable, CaseIterable {
    /// `bigint`: integer identifiers.
    case int
    /// `text COLLATE "C"`: string identifiers without a NUL character.
    case string
    /// `bytea`: byte-string identifiers.
    case bytes
    /// `bytea` in the mixed encoding: identifiers of every kind.
    case mixed

    /// The kind for a new key column first given `id`.
    init(for id: ItemID) {
        switch id {
        case .int: self = .int
        case .string(let string): self = string.containsNUL ? .mixed : .string
        case .bytes: self = .bytes
        case .composite: self = .mixed
        }
    }

    var columnType: ColumnType {
        switch self {
        case .int: .bigint
        case .string: ColumnType.createdText
        case .bytes: .bytea
        case .mixed: .mixed
        }
    }

    var sqlType: String {
        switch self {
        case .int: "bigint"
        case .string: "text COLLATE \"C\""
        case .bytes, .mixed: "bytea"
        }
    }
}
