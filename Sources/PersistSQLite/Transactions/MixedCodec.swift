import Foundation
import Persist

/// How a *mixed* column — a column the store created that met values of more than one kind —
/// keeps every value with its kind, and how SQL compares and sorts them (see the "SQLite storage
/// format" article).
///
/// Integers stay INTEGER, doubles other than NaN stay REAL and strings stay TEXT, so SQLite
/// compares them exactly as the predicate semantics say. Every other value is a BLOB whose first
/// byte, the tag, names its kind:
///
/// | kind | BLOB |
/// |---|---|
/// | bool | `01`, then `00` or `01` |
/// | NaN (a double) | `02` |
/// | date | `04`, 8 bytes of order key (big-endian; -0.0 as 0.0, NaN lowest), 8 bytes of the double's bits |
/// | bytes | `06`, then the bytes |
/// | array | `07`, then the binary value encoding |
/// | object | `08`, then the binary value encoding |
/// | decimal | `09`, then its ``DecimalText`` |
///
/// Tags follow the rank of comparison classes (numbers sit at 3 and strings at 5 between them), so
/// the rank of a value is its tag, or 0, 3 or 5 for NULL, numbers and TEXT; decimals are numbers,
/// at 3. Numbers sort by their ``NumberKey`` (`persist_number_order`: reals by their exact value),
/// so decimals fall among the integers and doubles.
enum MixedCodec {
    static let boolTag: UInt8 = 0x01
    static let nanTag: UInt8 = 0x02
    static let dateTag: UInt8 = 0x04
    static let bytesTag: UInt8 = 0x06
    static let arrayTag: UInt8 = 0x07
    static let objectTag: UInt8 = 0x08
    /// An exact decimal: its ``DecimalText``. Decimals rank with the other numbers (3).
    static let decimalTag: UInt8 = 0x09

    /// The length of a date's comparable prefix: the tag and the order key.
    static let dateKeyLength = 9

    /// The binding of `value` in a mixed column.
    static func binding(_ value: Value) -> SQLBinding {
        switch value {
        case .null: .null
        case .int(let int): .int(int)
        case .double(let double): double.isNaN ? .blob([nanTag]) : .double(double)
        case .string(let string): .text(string)
        case .bool(let bool): .blob([boolTag, bool ? 1 : 0])
        case .date(let date): .blob(dateBlob(date.timeIntervalSinceReferenceDate))
        case .bytes(let bytes): .blob([bytesTag] + bytes)
        case .array:
            .blob(tagged(arrayTag, value))
        case .object:
            .blob(tagged(objectTag, value))
        case .decimal(let decimal):
            .blob([decimalTag] + Array(DecimalText.text(decimal).utf8))
        }
    }

    private static func tagged(_ tag: UInt8, _ value: Value) -> [UInt8] {
        var buffer = [tag]
        BinaryValueCoding.encode(value, into: &buffer)
        return buffer
    }

    /// The date's BLOB: tag, order key, bits.
    static func dateBlob(_ seconds: Double) -> [UInt8] {
        var blob = dateKey(seconds)
        appendBigEndian(seconds.bitPattern, to: &blob)
        return blob
    }

    /// The tag and order key of a date: equal dates (by the predicate semantics) have equal keys,
    /// and keys compare bytewise as the dates do.
    static func dateKey(_ seconds: Double) -> [UInt8] {
        var key: [UInt8] = [dateTag]
        let order: UInt64
        if seconds.isNaN {
            order = 0
        } else {
            let bits = (seconds == 0 ? 0.0 : seconds).bitPattern
            order = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        }
        appendBigEndian(order, to: &key)
        return key
    }

    private static func appendBigEndian(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// The value a BLOB of a mixed column holds; `nil` when the bytes are no such value.
    static func value(ofBlob blob: [UInt8]) -> Value? {
        guard let tag = blob.first else { return nil }
        switch tag {
        case boolTag:
            guard blob.count == 2, blob[1] <= 1 else { return nil }
            return .bool(blob[1] == 1)
        case nanTag:
            return blob.count == 1 ? .double(.nan) : nil
        case dateTag:
            guard blob.count == dateKeyLength + 8 else { return nil }
            var bits: UInt64 = 0
            for byte in blob[dateKeyLength...] { bits = bits << 8 | UInt64(byte) }
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
        case bytesTag:
            return .bytes(Array(blob[1...]))
        case decimalTag:
            return String(validating: blob[1...], as: UTF8.self).flatMap(DecimalText.parse).map(Value.decimal)
        case arrayTag, objectTag:
            guard let decoded = try? BinaryValueCoding.decode(Array(blob[1...])) else { return nil }
            switch (tag, decoded) {
            case (arrayTag, .array), (objectTag, .object): return decoded
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The tag of values of `value`'s kind stored as BLOBs; `nil` for numbers (other than NaN) and strings.
    static func tag(of value: Value) -> UInt8? {
        switch value {
        case .null, .int, .string: nil
        case .double(let double): double.isNaN ? nanTag : nil
        case .bool: boolTag
        case .date: dateTag
        case .bytes: bytesTag
        case .array: arrayTag
        case .object: objectTag
        case .decimal: decimalTag
        }
    }

    // MARK: SQL

    /// True when the column holds a BLOB of `tag`.
    static func hasTag(_ column: String, _ tag: UInt8) -> String {
        "(typeof(\(column)) = 'blob' AND substr(\(column), 1, 1) = x'\(hex(tag))')"
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// The rank of the column's value for sorting: 0 NULL, 1 bool, 2 NaN, 3 other numbers, 4 date,
    /// 5 string, 6 bytes, 7 array, 8 object; decimals are numbers (3, NaN 2).
    static func rank(_ column: String) -> String {
        "CASE typeof(\(column)) WHEN 'null' THEN 0 WHEN 'integer' THEN 3 WHEN 'real' THEN 3 WHEN 'text' THEN 5 "
            + "WHEN 'blob' THEN CASE substr(\(column), 1, 1) WHEN x'\(hex(decimalTag))' "
            + "THEN CASE \(column) WHEN x'\(hex(decimalTag))4E614E' THEN 2 ELSE 3 END "
            + "ELSE unicode(CAST(substr(\(column), 1, 1) AS TEXT)) END END"
    }

    /// The column's value for sorting within its rank: numbers (decimals too) by their number key,
    /// dates by their order key, arrays and objects tied.
    static func sortKey(_ column: String) -> String {
        "CASE WHEN typeof(\(column)) IN ('integer', 'real') OR \(hasTag(column, decimalTag)) "
            + "OR \(column) = x'\(hex(nanTag))' "
            + "THEN \(SQLiteConnection.numberOrderFunction)(\(column)) "
            + "WHEN typeof(\(column)) <> 'blob' THEN \(column) "
            + "WHEN \(column) >= x'\(hex(arrayTag))' AND \(column) < x'\(hex(decimalTag))' THEN NULL "
            + "WHEN \(column) >= x'\(hex(dateTag))' AND \(column) < x'\(hex(dateTag + 1))' "
            + "THEN substr(\(column), 1, \(dateKeyLength)) ELSE \(column) END"
    }
}
