internal import CSQLite
import Foundation
import Persist

/// One prepared statement: owns its `sqlite3_stmt` and finalizes it exactly once.
///
/// A statement belongs to one ``SQLiteConnection`` and is used by one thread at a time, the one
/// holding the connection.
final class SQLiteStatement {
    private var handle: OpaquePointer?
    let sql: String
    private let path: String
    // Exclusivity unchecked (`inUse`, `lastUse`): plain flags set by the one thread holding the
    // connection, never while another access to them is open.
    /// Whether a caller is stepping this statement; a busy cached statement is not handed out again.
    @exclusivity(unchecked) var inUse = false
    /// When the statement was last handed out, for evicting the least recently used.
    @exclusivity(unchecked) var lastUse: UInt64 = 0

    init(handle: OpaquePointer, sql: String, path: String) {
        self.handle = handle
        self.sql = sql
        self.path = path
    }

    deinit {
        finalize()
    }

    /// Frees the statement; later calls do nothing.
    func finalize() {
        if let handle {
            sqlite3_finalize(handle)
            self.handle = nil
        }
    }

    /// The handle; every bind and step goes through here, so the check is inlined and the error
    /// made out of line.
    private var statement: OpaquePointer {
        @inline(__always) get throws {
            if let handle { return handle }
            throw finalized()
        }
    }

    private func finalized() -> DataStoreError {
        DataStoreError(.misuse, "a statement of the SQLite database at \(path) was used after it was finalized", path: path)
    }

    private func failure(_ code: Int32, _ operation: String, errno captured: Int32) -> DataStoreError {
        let database = handle.flatMap { sqlite3_db_handle($0) }
        let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        return SQLiteErrors.error(code: code, message: message, path: path, operation: operation,
                                  systemError: SQLiteErrors.systemError(of: database, errno: captured))
    }

    // MARK: Binding

    /// Binds `bindings` to parameters 1, 2, …
    func bind(_ bindings: [SQLBinding]) throws {
        for (offset, binding) in bindings.enumerated() {
            try bind(binding, at: Int32(offset + 1))
        }
    }

    /// Binds one value to the parameter at `index` (1-based).
    func bind(_ binding: SQLBinding, at index: Int32) throws {
        let statement = try statement
        let result: Int32
        switch binding {
        case .null:
            result = sqlite3_bind_null(statement, index)
        case .int(let value):
            result = sqlite3_bind_int64(statement, index, value)
        case .double(let value):
            result = sqlite3_bind_double(statement, index, value)
        case .text(var text):
            if text.utf8.isEmpty {
                // A non-null pointer, or SQLite would bind NULL instead of the empty string.
                result = sqlite3_bind_text64(statement, index, "", 0, persist_sqlite_transient(), UInt8(SQLITE_UTF8))
            } else {
                result = text.withUTF8 { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { characters in
                        sqlite3_bind_text64(statement, index, characters.baseAddress, UInt64(characters.count),
                                            persist_sqlite_transient(), UInt8(SQLITE_UTF8))
                    }
                }
            }
        case .blob(let bytes):
            if bytes.isEmpty {
                result = sqlite3_bind_zeroblob(statement, index, 0)
            } else {
                result = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob64(statement, index, buffer.baseAddress, UInt64(buffer.count),
                                        persist_sqlite_transient())
                }
            }
        }
        if result != SQLITE_OK { throw failure(result, "binding a value", errno: 0) }
    }

    /// Binds text or a blob that stays where it is until the statement is reset (`SQLITE_STATIC`):
    /// SQLite reads it in place instead of copying it.
    func bindStatic(_ bytes: UnsafeRawBufferPointer, asText: Bool, at index: Int32) throws {
        let statement = try statement
        let result: Int32
        if asText {
            // A non-null pointer even for no bytes, or SQLite would bind NULL instead of ''.
            let empty: StaticString = ""
            let pointer = bytes.baseAddress ?? UnsafeRawPointer(empty.utf8Start)
            result = sqlite3_bind_text64(statement, index, pointer.assumingMemoryBound(to: CChar.self), UInt64(bytes.count),
                                         nil, UInt8(SQLITE_UTF8))
        } else if bytes.isEmpty {
            result = sqlite3_bind_zeroblob(statement, index, 0)
        } else {
            result = sqlite3_bind_blob64(statement, index, bytes.baseAddress, UInt64(bytes.count), nil)
        }
        if result != SQLITE_OK { throw failure(result, "binding a value", errno: 0) }
    }

    /// Binds one value to the parameter at `index` (1-based), text and bytes copied into `arena`
    /// and bound in place when they fit in what the arena's row announced (otherwise SQLite copies
    /// them, as ``bind(_:at:)`` does).
    func bind(_ binding: SQLBinding, at index: Int32, through arena: BindingArena) throws {
        switch binding {
        case .text(var text) where arena.fits(text.utf8.count):
            try text.withUTF8 { try bindStatic(arena.copy(UnsafeRawBufferPointer($0)), asText: true, at: index) }
        case .blob(let bytes) where arena.fits(bytes.count):
            try bytes.withUnsafeBytes { try bindStatic(arena.copy($0), asText: false, at: index) }
        default:
            try bind(binding, at: index)
        }
    }

    // MARK: Stepping

    /// Advances to the next row: `true` when a row is available, `false` when done.
    func step(_ operation: @autoclosure () -> String) throws -> Bool {
        let result = sqlite3_step(try statement)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            // Read before anything else can change it.
            let captured = errno
            throw failure(result, operation(), errno: captured)
        }
    }

    /// Makes the statement ready to run again; bindings are kept until rebound.
    func reset() {
        if let handle { sqlite3_reset(handle) }
    }

    // MARK: Columns of the current row

    /// Column `index` of the current row, or `nil` when it is NULL: read its storage class and its
    /// value from the result at once.
    @inline(__always)
    func column(_ index: Int32) -> SQLiteColumn? {
        guard let handle else { return nil }
        return SQLiteColumn(handle, index)
    }

    /// The storage class of column `index`, or `nil` for NULL.
    func storageClass(_ index: Int32) -> StorageClass? { column(index)?.storage }

    func int64(_ index: Int32) -> Int64 { column(index)?.int64 ?? 0 }

    func double(_ index: Int32) -> Double { column(index)?.double ?? 0 }

    /// The text of column `index` (NUL characters included).
    func text(_ index: Int32) -> String { column(index)?.repairedText ?? "" }

    /// The bytes of column `index`.
    func blob(_ index: Int32) -> [UInt8] { column(index)?.blob ?? [] }
}
