import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing

@Suite("Every binary parameter type round-trips through the server bit for bit")
struct BinaryRoundTripTests {
    static let integers: [Int64] = [0, 1, -1, 42, .min, .max, .min + 1, .max - 1, 1 << 53 + 1]
    static let doubles: [Double] = [0, -0.0, 1.5, -1e308, .pi, .infinity, -.infinity, .leastNonzeroMagnitude,
                                    .greatestFiniteMagnitude, .ulpOfOne]
    static let texts = ["", "a", "héllo wörld", "日本語", "🏳️‍🌈 family 👨‍👩‍👧", "'; DROP TABLE x; --", String(repeating: "x", count: 100_000),
                        "tab\tnewline\nquote\"backslash\\"]
    static let byteStrings: [[UInt8]] = [[], [0], [0, 0, 0], [0xFF, 0, 0x7F, 0x80], Array(0...255),
                                         [UInt8](repeating: 0, count: 70_000)]
    static let timestamps: [Int64] = [0, 1, -1, 1_234_567_890_123_456, -63_000_000_000_000_000, .max, .min,
                                      PGTimestamp.microseconds(from: Date(timeIntervalSince1970: 1_700_000_000.123456))]

    /// The value `SELECT $1` returns for `value`: the server decodes it and encodes it back.
    private func echo(_ connection: PGConnection, _ value: PGValue) throws -> PGValue {
        let result = try connection.execute("SELECT $1", [value])
        return try result.value(0, 0)
    }

    @Test("int8 including Int64.min and Int64.max")
    func int8() throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        for value in Self.integers { #expect(try echo(connection, .int8(value)) == .int8(value)) }
    }

    @Test("float8 bit for bit: -0.0, ±infinity, extremes; NaN stays NaN")
    func float8() throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        for value in Self.doubles {
            guard case .float8(let back) = try echo(connection, .float8(value)) else {
                Issue.record("\(value) did not come back as float8")
                continue
            }
            #expect(back.bitPattern == value.bitPattern, "\(value) came back as \(back)")
        }
        for nan in [Double.nan, -Double.nan, Double(bitPattern: 0x7FF0_0000_0000_0001)] {
            guard case .float8(let back) = try echo(connection, .float8(nan)) else {
                Issue.record("NaN did not come back as float8")
                continue
            }
            #expect(back.isNaN)
        }
    }

    @Test("bool, NULL, text (empty, Unicode, 100 kB) and bytea (empty, NULs, 70 kB)")
    func otherTypes() throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        #expect(try echo(connection, .bool(true)) == .bool(true))
        #expect(try echo(connection, .bool(false)) == .bool(false))
        #expect(try connection.execute("SELECT $1::int8", [.null]).value(0, 0) == .null)
        #expect(try connection.execute("SELECT $1::int8", [.null]).int64(0, 0) == nil)
        for text in Self.texts { #expect(try echo(connection, .text(text)) == .text(text)) }
        for bytes in Self.byteStrings { #expect(try echo(connection, .bytea(bytes)) == .bytea(bytes)) }
    }

    @Test("timestamptz as microseconds since 2000-01-01, the infinities included")
    func timestamptz() throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        for value in Self.timestamps { #expect(try echo(connection, .timestamptz(value)) == .timestamptz(value)) }
        let text = try connection.execute("SELECT ($1::timestamptz AT TIME ZONE 'UTC')::text", [.timestamptz(0)])
        #expect(try text.text(0, 0) == "2000-01-01 00:00:00")
        let date = try connection.execute("SELECT timestamptz '2023-11-14 22:13:20.123456+00'").timestamp(0, 0)
        #expect(date == PGTimestamp.microseconds(from: Date(timeIntervalSince1970: 1_700_000_000.123456)))
        // Beyond 294276 AD but not infinity: the server rejects it.
        let error = expectError(.typeMismatch) { try connection.execute("SELECT $1", [.timestamptz(.max - 1)]) }
        #expect(error?.engineMessage?.hasPrefix("22008") == true)
    }

    @Test("every type stored in a table and read back, through a prepared statement")
    func tableRoundTrip() throws {
        try withTestSchema { connection, _ in
            try connection.executeScript("""
                CREATE TABLE t (id int8 PRIMARY KEY, b bool, f float8, s text, d bytea, ts timestamptz)
                """)
            let rows: [[PGValue]] = [
                [.int8(.min), .bool(true), .float8(-0.0), .text(""), .bytea([]), .timestamptz(.min)],
                [.int8(.max), .bool(false), .float8(.infinity), .text("ü\u{1F600}"), .bytea([0, 0]), .timestamptz(.max)],
                [.int8(0), .null, .null, .null, .null, .null],
            ]
            for row in rows {
                let inserted = try connection.executePrepared("INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6)", row)
                #expect(inserted.affectedRows == 1)
            }
            let result = try connection.execute("SELECT id, b, f, s, d, ts FROM t ORDER BY id")
            #expect(result.rowCount == 3)
            let read = try (0..<result.rowCount).map { row in try (0..<result.columnCount).map { try result.value(row, $0) } }
            #expect(read == [rows[0], rows[2], rows[1]])
            #expect(result.columnName(3) == "s")
            #expect(result.columnIndex(named: "ts") == 5)
            #expect(try connection.execute("UPDATE t SET b = true WHERE id >= 0").affectedRows == 2)
        }
    }

    @Test("decoders reject a column of another type and a row outside the result")
    func decoderChecks() throws {
        let connection = try TestServer.connect()
        defer { connection.close() }
        let result = try connection.execute("SELECT 1::int4, 'x'::text, 1.5::float4, 7::int2")
        #expect(try result.int64(0, 0) == 1)
        #expect(try result.double(0, 2) == 1.5)
        #expect(try result.int64(0, 3) == 7)
        expectError(.typeMismatch) { try result.text(0, 0) }
        expectError(.typeMismatch) { try result.int64(0, 1) }
        expectError(.misuse) { try result.int64(1, 0) }
        expectError(.misuse) { try result.int64(0, 9) }
        let numeric = try connection.execute("SELECT 1.5::numeric")
        expectError(.unsupported) { try numeric.value(0, 0) }
        // A script's results arrive as text: text() reads them, typed decoders say why they cannot.
        let script = try connection.executeScript("SELECT 42")
        #expect(try script.text(0, 0) == "42")
        expectError(.misuse) { try script.int64(0, 0) }
    }
}
