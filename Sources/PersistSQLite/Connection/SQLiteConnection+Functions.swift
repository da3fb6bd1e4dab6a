internal import CSQLite
import Foundation
import Persist

/// The SQL functions Persist registers on each of its connections: deterministic order keys
/// (see ``NumberKey``) for comparing and sorting decimals exactly with other numbers.
///
/// - `persist_decimal_key(v)`: the key of a value of a decimal column (see ``DecimalCodec``):
///   INTEGER exactly, REAL as its 15-digit text, TEXT or BLOB as the digits they spell; NULL for
///   anything else.
/// - `persist_number_key(v)`: the key of a value of a number or mixed column: INTEGER exactly,
///   REAL as its shortest text, the NaN marker (TEXT `NaN` or the mixed BLOB `02`) as NaN, a
///   mixed decimal BLOB as its digits; NULL for anything else.
/// - `persist_number_order(v)`: as `persist_number_key`, but a REAL by its exact value, so that a
///   mixed column sorts reals among integers exactly.
/// - `persist_decimal_number(v)`: a mixed column's decimal BLOB as the INTEGER or REAL equal to it
///   (the NaN BLOB `02` for NaN), so that a unique index over the column finds them equal; the
///   BLOB itself when no integer or double equals it, and any other value as it is.
/// - `persist_json_value(v)`: the value of a column that holds JSON text (see ``JSONText``) in
///   the encoding of a mixed column (see ``MixedCodec``): text as the value its JSON spells (or as
///   itself when it is no JSON), a BLOB as tagged bytes, numbers as they are; so that requests on
///   such a column compare and sort its values as on a mixed column.
///
/// Only Persist's connections know them: the `sqlite3` shell reads the values, not the keys.
extension SQLiteConnection {
    static let decimalKeyFunction = "persist_decimal_key"
    static let numberKeyFunction = "persist_number_key"
    static let numberOrderFunction = "persist_number_order"
    static let decimalNumberFunction = "persist_decimal_number"
    static let jsonValueFunction = "persist_json_value"

    /// Registers the functions on `handle`; a failure is an engine error naming the function.
    static func registerFunctions(_ handle: OpaquePointer, path: String) throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        for name in [decimalKeyFunction, numberKeyFunction, numberOrderFunction, decimalNumberFunction, jsonValueFunction] {
            let result = switch name {
            case decimalNumberFunction: sqlite3_create_function_v2(handle, name, 1, flags, nil, persistDecimalNumber, nil, nil, nil)
            case jsonValueFunction: sqlite3_create_function_v2(handle, name, 1, flags, nil, persistJSONValue, nil, nil, nil)
            case decimalKeyFunction: sqlite3_create_function_v2(handle, name, 1, flags, nil, persistDecimalKey, nil, nil, nil)
            case numberKeyFunction: sqlite3_create_function_v2(handle, name, 1, flags, nil, persistNumberKey, nil, nil, nil)
            default: sqlite3_create_function_v2(handle, name, 1, flags, nil, persistNumberOrder, nil, nil, nil)
            }
            guard result == SQLITE_OK else {
                throw DataStoreError(
                    .io, "SQLite refused to register the function \(name) on the database at \(path): "
                        + String(cString: sqlite3_errstr(result)),
                    path: path, engineCode: Int(result), engineMessage: String(cString: sqlite3_errstr(result)))
            }
        }
    }
}

private func persistDecimalKey(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let value = arguments?[0] else { return sqlite3_result_null(context) }
    let key: [UInt8]?
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: key = NumberKey.key(text: String(sqlite3_value_int64(value)))
    case SQLITE_FLOAT:
        let double = sqlite3_value_double(value)
        key = double.isFinite ? NumberKey.key(text: DecimalCodec.fifteenDigits(double)) : NumberKey.key(double)
    case SQLITE_TEXT, SQLITE_BLOB: key = digitsKey(value, from: 0)
    default: key = nil
    }
    setResult(context, key)
}

private func persistNumberKey(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    numberKey(context, arguments, exact: false)
}

private func persistNumberOrder(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    numberKey(context, arguments, exact: true)
}

private func numberKey(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?, exact: Bool) {
    guard let value = arguments?[0] else { return sqlite3_result_null(context) }
    let key: [UInt8]?
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: key = NumberKey.key(text: String(sqlite3_value_int64(value)))
    case SQLITE_FLOAT:
        let double = sqlite3_value_double(value)
        key = exact ? NumberKey.exactKey(double) : NumberKey.key(double)
    case SQLITE_TEXT:
        key = bytes(value) == Array(ValueCodec.nanMarker.utf8) ? NumberKey.nan : nil
    case SQLITE_BLOB:
        let blob = bytes(value)
        if blob == [MixedCodec.nanTag] {
            key = NumberKey.nan
        } else if blob.first == MixedCodec.decimalTag {
            key = exact ? exactDecimalKey(blob[1...]) : digitsKey(value, from: 1)
        } else {
            key = nil
        }
    default: key = nil
    }
    setResult(context, key)
}

private func persistDecimalNumber(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let value = arguments?[0] else { return sqlite3_result_null(context) }
    let blob = sqlite3_value_type(value) == SQLITE_BLOB ? bytes(value) : []
    guard blob.first == MixedCodec.decimalTag, let text = String(validating: blob[1...], as: UTF8.self),
          let decimal = DecimalText.parse(text) else {
        return sqlite3_result_value(context, value)
    }
    if decimal.isNaN {
        return setResult(context, [MixedCodec.nanTag])
    }
    if let integer = Int64(text) { return sqlite3_result_int64(context, integer) }
    if let double = Double(text), double.isFinite, DecimalText.decimal(nearest: double) == decimal {
        return sqlite3_result_double(context, double)
    }
    sqlite3_result_value(context, value)
}

/// The key of a decimal among reals keyed by their exact values: a decimal that is a double's
/// shortest text takes that double's key, since the two are equal (see `ValueSemantics`); any
/// other decimal keys by its digits.
private func exactDecimalKey(_ digits: ArraySlice<UInt8>) -> [UInt8]? {
    guard let text = String(validating: digits, as: UTF8.self) else { return nil }
    if let decimal = DecimalText.parse(text), let double = Double(text), double.isFinite,
       DecimalText.decimal(nearest: double) == decimal {
        return NumberKey.exactKey(double)
    }
    return NumberKey.key(text: text)
}

/// The key of the number the value's bytes from `start` on spell.
private func digitsKey(_ value: OpaquePointer, from start: Int) -> [UInt8]? {
    let all = bytes(value)
    guard start <= all.count, let text = String(validating: all[start...], as: UTF8.self) else { return nil }
    return NumberKey.key(text: text)
}

private func bytes(_ value: OpaquePointer) -> [UInt8] {
    let count = Int(sqlite3_value_bytes(value))
    guard count > 0, let pointer = sqlite3_value_blob(value) else { return [] }
    return [UInt8](UnsafeRawBufferPointer(start: pointer, count: count))
}

private func setResult(_ context: OpaquePointer?, _ key: [UInt8]?) {
    guard let key else { return sqlite3_result_null(context) }
    key.withUnsafeBytes { buffer in
        sqlite3_result_blob64(context, buffer.baseAddress, UInt64(buffer.count), persist_sqlite_transient())
    }
}

private func persistJSONValue(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let value = arguments?[0] else { return sqlite3_result_null(context) }
    let binding: SQLBinding
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: binding = .int(sqlite3_value_int64(value))
    case SQLITE_FLOAT: binding = .double(sqlite3_value_double(value))
    case SQLITE_TEXT: binding = MixedCodec.binding(JSONText.value(ofText: String(decoding: bytes(value), as: UTF8.self)))
    case SQLITE_BLOB: binding = MixedCodec.binding(.bytes(bytes(value)))
    default: return sqlite3_result_null(context)
    }
    switch binding {
    case .int(let int): sqlite3_result_int64(context, int)
    case .double(let double): sqlite3_result_double(context, double)
    case .text(let text) where text.utf8.isEmpty:
        // A non-null pointer, or SQLite would give NULL instead of the empty string.
        sqlite3_result_text64(context, "", 0, persist_sqlite_transient(), UInt8(SQLITE_UTF8))
    case .text(var text):
        text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                sqlite3_result_text64(context, characters.baseAddress, UInt64(characters.count),
                                      persist_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
    case .blob(let blob): setResult(context, blob)
    default: sqlite3_result_null(context)
    }
}
