/// A value sent to the server as a parameter or a COPY field, in PostgreSQL's binary format.
///
/// ```swift
/// try connection.execute("INSERT INTO t VALUES ($1, $2, $3)", [.int8(42), .text("a"), .null])
/// ```
package enum PGValue: Sendable, Equatable {
    /// SQL NULL, of a type the server infers from the statement.
    case null
    /// `bool`.
    case bool(Bool)
    /// `int8` (`bigint`).
    case int8(Int64)
    /// `float8` (`double precision`), bit for bit.
    case float8(Double)
    /// `text`: UTF-8; the server rejects a NUL character (SQLSTATE 22021).
    case text(String)
    /// `bytea`: any bytes, NUL included.
    case bytea([UInt8])
    /// `timestamptz`: microseconds since 2000-01-01 00:00:00 UTC (see ``PGTimestamp``).
    case timestamptz(Int64)
    /// A value of any other type, already in that type's binary form (`numeric`, `uuid`,
    /// `date`, a composite, an array, …), with the type's OID.
    case raw(type: UInt32, bytes: [UInt8])
    /// SQL NULL of a given type, so that a statement prepared for values of that type is reused
    /// when the value is missing.
    case typedNull(UInt32)

    /// Whether the value is SQL NULL.
    var isNull: Bool {
        switch self {
        case .null, .typedNull: true
        default: false
        }
    }

    /// The OID of the value's type; 0 for NULL, which lets the server decide.
    var typeOID: UInt32 {
        switch self {
        case .null: 0
        case .bool: PGType.bool
        case .int8: PGType.int8
        case .float8: PGType.float8
        case .text: PGType.text
        case .bytea: PGType.bytea
        case .timestamptz: PGType.timestamptz
        case .raw(let type, _), .typedNull(let type): type
        }
    }

    /// Appends the value's binary form (without a length); does nothing for NULL.
    func appendBinary(to bytes: inout [UInt8]) {
        switch self {
        case .null, .typedNull: break
        case .bool(let value): bytes.append(value ? 1 : 0)
        case .int8(let value), .timestamptz(let value): bytes.appendBigEndian(UInt64(bitPattern: value))
        case .float8(let value): bytes.appendBigEndian(value.bitPattern)
        case .text(let value): bytes.append(contentsOf: value.utf8)
        case .bytea(let value), .raw(_, let value): bytes.append(contentsOf: value)
        }
    }

    /// The length of the binary form; `nil` for NULL.
    var binaryLength: Int? {
        switch self {
        case .null, .typedNull: nil
        case .bool: 1
        case .int8, .timestamptz, .float8: 8
        case .text(let value): value.utf8.count
        case .bytea(let value), .raw(_, let value): value.count
        }
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        var bigEndian = value.bigEndian
        Swift.withUnsafeBytes(of: &bigEndian) { append(contentsOf: $0) }
    }
}
