import CSQLite
import Foundation

/// A value as plain SQL sees it: the storage class and the payload.
public enum RawValue: Equatable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): "\(value)"
        case .real(let value): "\(value)r"
        case .text(let value): String(reflecting: value)
        case .blob(let value): "X'" + value.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}

/// A plain SQLite connection for setting up and inspecting databases in tests, as legacy code or
/// another process would.
public final class RawDatabase {
    public private(set) var handle: OpaquePointer?
    private let owned: Bool

    public init(_ path: String, flags: Int32 = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) throws {
        var handle: OpaquePointer?
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        self.handle = handle
        owned = true
        guard result == SQLITE_OK else {
            throw RawDatabaseError(message: "open \(path): \(result)")
        }
    }

    /// Uses a connection someone else owns (the store's escape hatch), without closing it.
    public init(borrowing handle: OpaquePointer) {
        self.handle = handle
        owned = false
    }

    deinit {
        close()
    }

    public func close() {
        if let handle, owned { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs SQL statements (no results).
    public func exec(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &error)
        if result != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "\(result)"
            sqlite3_free(error)
            throw RawDatabaseError(message: message)
        }
    }

    /// Every row of a query, with bound parameters.
    public func rows(_ sql: String, _ parameters: [RawValue] = []) throws -> [[RawValue]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw RawDatabaseError(message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        for (offset, parameter) in parameters.enumerated() {
            let index = Int32(offset + 1)
            switch parameter {
            case .null: sqlite3_bind_null(statement, index)
            case .integer(let value): sqlite3_bind_int64(statement, index, value)
            case .real(let value): sqlite3_bind_double(statement, index, value)
            case .text(let value):
                sqlite3_bind_text(statement, index, value, Int32(value.utf8.count), persist_sqlite_transient())
            case .blob(let value):
                _ = value.withUnsafeBytes {
                    sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), persist_sqlite_transient())
                }
            }
        }
        var rows: [[RawValue]] = []
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { break }
            guard result == SQLITE_ROW else { throw RawDatabaseError(message: String(cString: sqlite3_errmsg(handle))) }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
                case SQLITE_TEXT:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    guard let text = sqlite3_column_text(statement, column) else { return .text("") }
                    return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
                case SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    guard let blob = sqlite3_column_blob(statement, column) else { return .blob([]) }
                    return .blob([UInt8](UnsafeRawBufferPointer(start: blob, count: count)))
                default: return .null
                }
            })
        }
        return rows
    }

    /// Every row of every table as `typeof`/value pairs, for comparing whole databases.
    public func dump(tables: [String]) throws -> [String: [[RawValue]]] {
        var result: [String: [[RawValue]]] = [:]
        for table in tables {
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            result[table] = try rows("SELECT * FROM \(quoted) ORDER BY rowid")
        }
        return result
    }
}

public struct RawDatabaseError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
