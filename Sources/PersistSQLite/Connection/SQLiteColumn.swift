internal import CSQLite
import Foundation
import Persist

/// One non-null column of a statement's current row: its storage class, and its value read from
/// the same `sqlite3_value`.
///
/// Reading a column through `sqlite3_column_type` and then `sqlite3_column_text` looks the column
/// up, and checks the connection's error state, once per call; a column found once and read
/// through the `sqlite3_value_*` functions does both once. The value belongs to the statement: a
/// column is valid only until the statement steps, resets or is finalized, so it is read where it
/// is found and never kept. The connection is used by one thread at a time (see
/// ``SQLiteConnection``), which is what SQLite requires of a column's unprotected value.
struct SQLiteColumn {
    /// How SQLite stores the value.
    let storage: StorageClass
    private let value: OpaquePointer

    /// The column at `index` of the current row of `statement`, or `nil` when it is NULL.
    @inline(__always)
    init?(_ statement: OpaquePointer, _ index: Int32) {
        guard let value = sqlite3_column_value(statement, index) else { return nil }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: storage = .integer
        case SQLITE_FLOAT: storage = .real
        case SQLITE_TEXT: storage = .text
        case SQLITE_BLOB: storage = .blob
        default: return nil
        }
        self.value = value
    }

    var int64: Int64 { sqlite3_value_int64(value) }

    var double: Double { sqlite3_value_double(value) }

    /// The value as text (NUL characters included); `nil` when its bytes are not valid UTF-8,
    /// which no string holds (SQLite stores whatever bytes it is given as TEXT).
    var text: String? {
        guard let pointer = sqlite3_value_text(value) else { return "" }
        let bytes = UnsafeBufferPointer(start: pointer, count: Int(sqlite3_value_bytes(value)))
        // ASCII, most text, is checked here, inline; other text is validated by decoding.
        if ByteReader.isASCII(UnsafeRawBufferPointer(bytes)) { return String(decoding: bytes, as: UTF8.self) }
        return ByteReader.validUTF8(UnsafeRawBufferPointer(bytes))
    }

    /// The value as text, invalid UTF-8 replaced by U+FFFD: for names in the schema, never for values.
    var repairedText: String {
        guard let pointer = sqlite3_value_text(value) else { return "" }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The value as bytes.
    var blob: [UInt8] {
        guard let pointer = sqlite3_value_blob(value) else { return [] }
        let count = Int(sqlite3_value_bytes(value))
        return [UInt8](UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Whether the value is exactly `expected` as text, compared without decoding.
    func textEquals(_ expected: StaticString) -> Bool {
        guard let pointer = sqlite3_value_text(value) else { return false }
        let count = Int(sqlite3_value_bytes(value))
        guard count == expected.utf8CodeUnitCount else { return false }
        return UnsafeBufferPointer(start: pointer, count: count).elementsEqual(
            UnsafeBufferPointer(start: expected.utf8Start, count: count))
    }

    /// The value as SQLite stores it: INTEGER, REAL, TEXT or BLOB; `nil` for TEXT that is not
    /// valid UTF-8.
    var native: Value? {
        switch storage {
        case .integer: .int(int64)
        case .real: .double(double)
        case .text: text.map(Value.string)
        case .blob: .bytes(blob)
        }
    }
}
