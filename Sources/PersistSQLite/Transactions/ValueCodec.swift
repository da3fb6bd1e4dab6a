import Foundation
import Persist

/// How values are stored in columns and read back (see the "SQLite storage format" article).
///
/// Created columns have no affinity, so SQLite keeps each value exactly as bound: booleans as
/// INTEGER 0 and 1, integers as INTEGER, doubles as REAL, strings as TEXT, bytes as BLOB, dates as
/// REAL seconds since 2001-01-01, arrays and objects as BLOBs in the binary value encoding, decimals
/// as ``DecimalCodec`` says (in a column declared `NUMERIC`). SQLite
/// turns a bound NaN into NULL, so a NaN double or date is stored as the TEXT `'NaN'`.
enum ValueCodec {
    /// The text standing for NaN in number and date columns.
    static let nanMarker = "NaN"

    /// The binding for `value` in a column the store created for its kind.
    static func typedBinding(_ value: Value) -> SQLBinding {
        switch value {
        case .null: .null
        case .bool(let bool): .int(bool ? 1 : 0)
        case .int(let int): .int(int)
        case .double(let double): real(double)
        case .decimal(let decimal): DecimalCodec.binding(decimal)
        case .string(let string): .text(string)
        case .bytes(let bytes): .blob(bytes)
        case .date(let date): real(date.timeIntervalSinceReferenceDate)
        case .array, .object: .blob(BinaryValueCoding.encode(value))
        }
    }

    /// A REAL, or the NaN marker.
    static func real(_ double: Double) -> SQLBinding {
        double.isNaN ? .text(nanMarker) : .double(double)
    }

    /// The binding for `value` in a legacy column, or `nil` when a legacy column cannot hold it
    /// and give it back: legacy columns keep integers, reals (not NaN), text and blobs.
    static func legacyBinding(_ value: Value) -> SQLBinding? {
        switch value {
        case .null: .null
        case .int(let int): .int(int)
        case .double(let double): double.isNaN ? nil : .double(double)
        case .string(let string): .text(string)
        case .bytes(let bytes): .blob(bytes)
        case .bool, .date, .array, .object, .decimal: nil
        }
    }

    /// The binding for `value` in a legacy column that reads decimals (`NUMERIC(p,s)`): a decimal
    /// as ``DecimalCodec`` stores it (not NaN, which the column cannot give back), else as in any
    /// legacy column.
    static func legacyBinding(_ value: Value, readsDecimals: Bool) -> SQLBinding? {
        if readsDecimals, case .decimal(let decimal) = value { return decimal.isNaN ? nil : DecimalCodec.binding(decimal) }
        return legacyBinding(value)
    }

    /// The binding for `value` in a legacy column: decimals in a `NUMERIC(p,s)` column, dates as
    /// ISO text in a column of a date form (see ``DateText``), else as in any legacy column.
    static func legacyBinding(_ value: Value, for column: ColumnSchema) -> SQLBinding? {
        if column.holdsJSON { return value.isNull ? .null : JSONText.text(value).map(SQLBinding.text) }
        if let form = column.dateForm {
            if case .date(let date) = value { return DateText.text(date, form).map(SQLBinding.text) }
            // A string that spells a date would read back as one.
            if case .string(let text) = value, DateText.date(text) != nil { return nil }
        }
        return legacyBinding(value, readsDecimals: column.readsDecimals)
    }

    /// The storage class SQLite receives for a binding.
    static func storageClass(_ binding: SQLBinding) -> StorageClass? {
        switch binding {
        case .null: nil
        case .int: .integer
        case .double: .real
        case .text: .text
        case .blob: .blob
        }
    }

    /// The identifier as a binding.
    static func binding(_ id: ItemID) -> SQLBinding {
        switch id {
        case .int(let int): .int(int)
        case .string(let string): .text(string)
        case .bytes(let bytes): .blob(bytes)
        case .composite(let components): .blob(BinaryValueCoding.encode(.array(components.map(\.value))))
        }
    }
}
