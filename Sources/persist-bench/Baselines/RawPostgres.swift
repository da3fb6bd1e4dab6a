import CLibPQ
import Foundation

/// The raw libpq C API, for the PostgreSQL baselines: the same work done without the library,
/// with named prepared statements and binary parameters and results.
final class RawPostgres {
    let handle: OpaquePointer

    /// Connects to `url` (libpq's own URI parsing; no `?schema=`).
    init(url: String) throws {
        guard let connection = PQconnectdb(url) else { throw BenchmarkError("libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw BenchmarkError("cannot connect to \(url): \(message)")
        }
        handle = connection
        try execute("SET client_min_messages = warning")
    }

    deinit {
        PQfinish(handle)
    }

    /// Runs `sql` (one or more statements, no parameters).
    func execute(_ sql: String) throws {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw BenchmarkError("\(sql): \(String(cString: PQerrorMessage(handle)))")
        }
    }

    /// Prepares `sql` under `name` with parameter types `types`.
    func prepare(_ name: String, _ sql: String, types: [UInt32]) throws {
        let result = PQprepare(handle, name, sql, Int32(types.count), types)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw BenchmarkError("\(sql): \(String(cString: PQerrorMessage(handle)))")
        }
    }

    /// Runs the prepared statement `name` with binary parameters (`nil` is NULL); the result is
    /// the caller's to clear.
    func run(_ name: String, _ parameters: [[UInt8]?]) throws -> OpaquePointer {
        var buffer: [UInt8] = []
        var offsets: [Int?] = []
        var lengths: [Int32] = []
        for parameter in parameters {
            offsets.append(parameter.map { _ in buffer.count })
            lengths.append(Int32(parameter?.count ?? 0))
            if let parameter { buffer.append(contentsOf: parameter) }
        }
        buffer.append(0)
        let formats = [Int32](repeating: 1, count: parameters.count)
        let result = buffer.withUnsafeBytes { raw in
            let values: [UnsafePointer<CChar>?] = offsets.map { offset in
                offset.flatMap { raw.baseAddress?.advanced(by: $0).assumingMemoryBound(to: CChar.self) }
            }
            return PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 1)
        }
        guard let result else { throw BenchmarkError(String(cString: PQerrorMessage(handle))) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            PQclear(result)
            throw BenchmarkError(String(cString: PQerrorMessage(handle)))
        }
        return result
    }

    // MARK: Binary values

    static func int8(_ value: Int64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
    static func float8(_ value: Double) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.bigEndian) { Array($0) } }
    static func bool(_ value: Bool) -> [UInt8] { [value ? 1 : 0] }
    static func text(_ value: String) -> [UInt8] { Array(value.utf8) }

    /// The store's `persist_date` composite: `(at timestamptz, seconds double precision)`.
    static func date(_ date: Date) -> [UInt8] {
        let seconds = date.timeIntervalSinceReferenceDate
        let micros = Int64((seconds * 1_000_000).rounded(.toNearestOrEven)) + 366 * 86_400 * 1_000_000
        var bytes: [UInt8] = int32(2)
        bytes += uint32(1184) + int32(8) + int8(micros)
        bytes += uint32(701) + int32(8) + float8(seconds)
        return bytes
    }

    private static func int32(_ value: Int32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
    private static func uint32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }

    /// Reads a binary result's values.
    struct Row {
        let result: OpaquePointer
        let row: Int32

        func isNull(_ column: Int32) -> Bool { PQgetisnull(result, row, column) == 1 }

        private func bytes(_ column: Int32) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: PQgetvalue(result, row, column), count: Int(PQgetlength(result, row, column)))
        }

        private func integer<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, at offset: Int, _: T.Type) -> T {
            var value = T.zero
            for index in offset..<(offset + MemoryLayout<T>.size) { value = value << 8 | T(bytes[index]) }
            return value
        }

        func int64(_ column: Int32) -> Int64 { Int64(bitPattern: integer(bytes(column), at: 0, UInt64.self)) }
        func double(_ column: Int32) -> Double { Double(bitPattern: integer(bytes(column), at: 0, UInt64.self)) }
        func bool(_ column: Int32) -> Bool { bytes(column).first == 1 }
        func string(_ column: Int32) -> String { String(decoding: bytes(column), as: UTF8.self) }

        /// The seconds of a `persist_date`: the second field, after the count and the first field.
        func date(_ column: Int32) -> Date {
            let raw = bytes(column)
            return Date(timeIntervalSinceReferenceDate: Double(bitPattern: integer(raw, at: 4 + 16 + 8, UInt64.self)))
        }
    }
}

/// The PostgreSQL server the scenarios use: `PERSIST_POSTGRES_URL`.
enum BenchmarkServer {
    static func url() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["PERSIST_POSTGRES_URL"], !url.isEmpty else {
            throw BenchmarkError("the PostgreSQL scenarios need a server: PERSIST_POSTGRES_URL is not set. Run `make bench`, "
                + "which starts a throwaway one, or start one with `make postgres` and export the URL it prints")
        }
        return url
    }

    /// A new schema name for one scenario run.
    static func newSchema(_ scenario: String) -> String {
        "persist_bench_" + scenario.replacingOccurrences(of: "-", with: "_") + "_"
            + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(8).lowercased()
    }
}
