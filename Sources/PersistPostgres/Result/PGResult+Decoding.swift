import Foundation
import Persist

/// Decoders for binary-format values. Each returns `nil` for NULL and throws
/// `DataStoreError(.typeMismatch)` when the column's type is not the one asked for, or
/// `.corrupt` when the bytes do not have that type's length; they never trap on what the server sends.
extension PGResult {
    /// An `int2`, `int4`, `int8` or `oid` value.
    package func int64(_ row: Int, _ column: Int) throws -> Int64? {
        let type = try expect(column, PGType.integers, "an integer")
        return try withValue(row, column) { bytes in
            switch (type, bytes.count) {
            case (PGType.int2, 2): Int64(Int16(bitPattern: UInt16(bigEndianBytes: bytes)))
            case (PGType.int4, 4): Int64(Int32(bitPattern: UInt32(bigEndianBytes: bytes)))
            case (PGType.oid, 4): Int64(UInt32(bigEndianBytes: bytes))
            case (PGType.int8, 8): Int64(bitPattern: UInt64(bigEndianBytes: bytes))
            default: throw corrupt(column, bytes.count)
            }
        }
    }

    /// A `float4` or `float8` value, bit for bit (NaN, the infinities and -0.0 included).
    package func double(_ row: Int, _ column: Int) throws -> Double? {
        let type = try expect(column, [PGType.float4, PGType.float8], "a floating-point number")
        return try withValue(row, column) { bytes in
            switch (type, bytes.count) {
            case (PGType.float4, 4): Double(Float(bitPattern: UInt32(bigEndianBytes: bytes)))
            case (PGType.float8, 8): Double(bitPattern: UInt64(bigEndianBytes: bytes))
            default: throw corrupt(column, bytes.count)
            }
        }
    }

    /// A `bool` value.
    package func bool(_ row: Int, _ column: Int) throws -> Bool? {
        _ = try expect(column, [PGType.bool], "a bool")
        return try withValue(row, column) { bytes in
            guard bytes.count == 1 else { throw corrupt(column, bytes.count) }
            return bytes[0] != 0
        }
    }

    /// A `text`, `varchar`, `char`, `name` or `unknown` value; in a text-format result, any column's text.
    package func text(_ row: Int, _ column: Int) throws -> String? {
        if isBinary(column) { _ = try expect(column, PGType.textual, "text") }
        return try withValue(row, column) { bytes in String(decoding: bytes, as: UTF8.self) }
    }

    /// A `bytea` value.
    package func bytes(_ row: Int, _ column: Int) throws -> [UInt8]? {
        _ = try expect(column, [PGType.bytea], "bytes (bytea)")
        return try withValue(row, column) { [UInt8]($0) }
    }

    /// A `timestamptz` or `timestamp` value as microseconds since 2000-01-01 (see ``PGTimestamp``).
    package func timestamp(_ row: Int, _ column: Int) throws -> Int64? {
        _ = try expect(column, [PGType.timestamptz, PGType.timestamp], "a timestamp")
        return try withValue(row, column) { bytes in
            guard bytes.count == 8 else { throw corrupt(column, bytes.count) }
            return Int64(bitPattern: UInt64(bigEndianBytes: bytes))
        }
    }

    /// The value at `row`, `column` as the ``PGValue`` of its type: integers as `.int8`, floats as
    /// `.float8`, text types as `.text`, timestamps as `.timestamptz`.
    package func value(_ row: Int, _ column: Int) throws -> PGValue {
        if isNull(row, column) { return .null }
        let type = columnType(column)
        switch type {
        case PGType.bool: return try bool(row, column).map(PGValue.bool) ?? .null
        case _ where PGType.integers.contains(type): return try int64(row, column).map(PGValue.int8) ?? .null
        case PGType.float4, PGType.float8: return try double(row, column).map(PGValue.float8) ?? .null
        case _ where PGType.textual.contains(type): return try text(row, column).map(PGValue.text) ?? .null
        case PGType.bytea: return try bytes(row, column).map(PGValue.bytea) ?? .null
        case PGType.timestamptz, PGType.timestamp: return try timestamp(row, column).map(PGValue.timestamptz) ?? .null
        default:
            throw DataStoreError(.unsupported, "column \(describe(column)) has PostgreSQL type OID \(type), which "
                + "Persist does not decode; cast it in the query (to text, bigint, double precision, bytea, …)",
                path: location)
        }
    }

    /// The column's type, after checking that it is binary and one of `types`.
    private func expect(_ column: Int, _ types: Set<UInt32>, _ wanted: String) throws -> UInt32 {
        guard (0..<columnCount).contains(column) else {
            throw DataStoreError(.misuse, "column \(column) is outside a PostgreSQL result of \(columnCount) columns",
                                 path: location)
        }
        let type = columnType(column)
        guard types.contains(type) else {
            throw DataStoreError(.typeMismatch, "column \(describe(column)) of a PostgreSQL result has type OID "
                + "\(type), not \(wanted)", path: location)
        }
        guard isBinary(column) else {
            throw DataStoreError(.misuse, "column \(describe(column)) of a PostgreSQL result is in text format; "
                + "run the statement with binary results to decode it", path: location)
        }
        return type
    }

    private func corrupt(_ column: Int, _ count: Int) -> DataStoreError {
        DataStoreError(.corrupt, "column \(describe(column)) of a PostgreSQL result holds \(count) bytes, "
            + "not the length of its type OID \(columnType(column))", path: location)
    }

    private func describe(_ column: Int) -> String {
        columnName(column).map { "\(column) (\"\($0)\")" } ?? "\(column)"
    }
}

extension FixedWidthInteger {
    /// The integer stored big-endian in `bytes`, whose count the caller has checked.
    init(bigEndianBytes bytes: UnsafeRawBufferPointer) {
        var value = Self.zero
        for byte in bytes.prefix(MemoryLayout<Self>.size) { value = value << 8 | Self(byte) }
        self = value
    }
}
