internal import CLibPQ
import Foundation
import Persist

/// One result of a statement: owns its `PGresult` and clears it exactly once.
///
/// A result does not depend on its connection: it stays readable after the connection moves on
/// or closes. Rows and columns are numbered from 0; values are read with the decoders in
/// `PGResult+Decoding.swift`.
///
/// ```swift
/// let result = try connection.execute("SELECT id, name FROM t WHERE id = $1", [.int8(7)])
/// for row in 0..<result.rowCount { print(try result.int64(row, 0) ?? 0, try result.text(row, 1) ?? "NULL") }
/// ```
package final class PGResult {
    private var handle: OpaquePointer?
    /// The server's location, for messages.
    let location: String

    init(handle: OpaquePointer, location: String) {
        self.handle = handle
        self.location = location
    }

    deinit {
        clear()
    }

    /// Frees the result; later calls do nothing, and reading it afterwards finds no rows.
    package func clear() {
        if let handle {
            PQclear(handle)
            self.handle = nil
        }
    }

    /// The number of rows.
    package var rowCount: Int {
        handle.map { Int(PQntuples($0)) } ?? 0
    }

    /// The number of columns.
    package var columnCount: Int {
        handle.map { Int(PQnfields($0)) } ?? 0
    }

    /// The name of column `column`.
    package func columnName(_ column: Int) -> String? {
        guard let handle, (0..<columnCount).contains(column), let name = PQfname(handle, Int32(column)) else { return nil }
        return String(cString: name)
    }

    /// Whether column `column` is named exactly `name` (NUL-terminated bytes), compared in place.
    func columnName(_ column: Int, equals name: ContiguousArray<CChar>) -> Bool {
        guard let handle, (0..<columnCount).contains(column), let field = PQfname(handle, Int32(column)) else { return false }
        return name.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { strcmp(field, $0) == 0 } ?? false }
    }

    /// The index of the column named `name`, or `nil`.
    package func columnIndex(named name: String) -> Int? {
        guard let handle else { return nil }
        let index = Int(PQfnumber(handle, name))
        return index >= 0 ? index : nil
    }

    /// The type OID of column `column` (see ``PGType``).
    package func columnType(_ column: Int) -> UInt32 {
        guard let handle, (0..<columnCount).contains(column) else { return 0 }
        return PQftype(handle, Int32(column))
    }

    /// Whether column `column` arrived in binary format (otherwise as text).
    package func isBinary(_ column: Int) -> Bool {
        guard let handle, (0..<columnCount).contains(column) else { return false }
        return PQfformat(handle, Int32(column)) == 1
    }

    /// Whether the value at `row`, `column` is NULL (also for a row or column out of range).
    package func isNull(_ row: Int, _ column: Int) -> Bool {
        guard let handle, contains(row, column) else { return true }
        return PQgetisnull(handle, Int32(row), Int32(column)) == 1
    }

    /// The number of rows an INSERT, UPDATE, DELETE, MERGE, COPY or SELECT affected
    /// (`PQcmdTuples`); 0 for other commands.
    package var affectedRows: Int {
        guard let handle, let text = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// The command tag, such as `INSERT 0 1` or `CREATE TABLE`.
    package var commandTag: String {
        guard let handle, let text = PQcmdStatus(handle) else { return "" }
        return String(cString: text)
    }

    /// The SQLSTATE the server sent with this result, when it holds an error.
    package var sqlState: PostgresSQLState? {
        field(persist_pq_diag_sqlstate()).flatMap(PostgresSQLState.init)
    }

    /// The bytes at `row`, `column` (text columns as UTF-8), or `nil` for NULL; valid only in `body`.
    func withValue<R>(_ row: Int, _ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        guard let handle else { throw DataStoreError(.misuse, "a cleared PostgreSQL result was read", path: location) }
        guard contains(row, column) else {
            throw DataStoreError(.misuse, "row \(row), column \(column) is outside a PostgreSQL result of "
                + "\(rowCount) rows and \(columnCount) columns", path: location)
        }
        let r = Int32(row)
        let c = Int32(column)
        if PQgetisnull(handle, r, c) == 1 { return nil }
        let length = Int(PQgetlength(handle, r, c))
        return try body(UnsafeRawBufferPointer(start: PQgetvalue(handle, r, c), count: length))
    }

    /// The failure this result reports, read from its error fields; `nil` when it holds none.
    ///
    /// - Parameter clientState: the SQLSTATE for an error libpq made up itself, which has none.
    func failure(clientState: PostgresSQLState) -> ServerFailure? {
        guard let handle else { return nil }
        let message = field(persist_pq_diag_message_primary())
        guard let state = sqlState else {
            guard let text = PQresultErrorMessage(handle).map({ String(cString: $0) }), !text.isEmpty else { return nil }
            return .client(text, clientState)
        }
        return ServerFailure(sqlState: state, message: message ?? "no message",
                             detail: field(persist_pq_diag_message_detail()), hint: field(persist_pq_diag_message_hint()),
                             constraint: field(persist_pq_diag_constraint_name()),
                             schema: field(persist_pq_diag_schema_name()), table: field(persist_pq_diag_table_name()))
    }

    /// The status (`PGRES_…`).
    var status: ExecStatusType {
        handle.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
    }

    private func field(_ code: Int32) -> String? {
        guard let handle, let value = PQresultErrorField(handle, code) else { return nil }
        return String(cString: value)
    }

    private func contains(_ row: Int, _ column: Int) -> Bool {
        (0..<rowCount).contains(row) && (0..<columnCount).contains(column)
    }
}
