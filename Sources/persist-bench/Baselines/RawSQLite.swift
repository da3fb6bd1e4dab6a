import CSQLite
import Foundation

/// The raw SQLite C API, for the baselines: the same work done without the library.
final class RawSQLite {
    let handle: OpaquePointer

    init(path: String) throws {
        var connection: OpaquePointer?
        let status = sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard status == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(connection)
            throw BenchmarkError("cannot open \(path): \(message)")
        }
        handle = connection
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement else {
            throw BenchmarkError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        return RawStatement(statement, connection: handle)
    }
}

/// One prepared statement of the raw baselines.
final class RawStatement {
    private let statement: OpaquePointer
    private let connection: OpaquePointer

    init(_ statement: OpaquePointer, connection: OpaquePointer) {
        self.statement = statement
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(statement)
    }

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(statement, index, value) }
    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(statement, index, value) }
    func bindNull(_ index: Int32) { sqlite3_bind_null(statement, index) }
    func bind(_ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            _ = utf8.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), persist_sqlite_transient())
            }
        }
    }
    func bind(_ index: Int32, _ bytes: UnsafeRawBufferPointer) {
        sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), persist_sqlite_transient())
    }

    /// Steps once; `true` while rows come.
    func step() throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw BenchmarkError(String(cString: sqlite3_errmsg(connection)))
        }
    }

    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    func columnType(_ column: Int32) -> Int32 { sqlite3_column_type(statement, column) }
    /// The bytes of a text or blob column, without a copy.
    func columnBytes(_ column: Int32) -> UnsafeRawBufferPointer {
        guard let bytes = sqlite3_column_blob(statement, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column)))
    }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}

/// A failure of the benchmark harness itself.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
