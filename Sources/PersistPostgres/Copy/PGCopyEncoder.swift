import Persist

/// Builds PostgreSQL's binary COPY format (`COPY … FROM STDIN (FORMAT binary)`): a header,
/// tuples, and a trailer.
///
/// Each tuple is a 16-bit field count and, per field, a 32-bit length (-1 for NULL) and the
/// value's binary form, all big-endian; the types must match the table's columns exactly, as the
/// server does not convert binary COPY data.
///
/// ```swift
/// var encoder = PGCopyEncoder()
/// try encoder.appendRow([.int8(1), .text("one")])
/// encoder.appendTrailer()
/// let bytes = encoder.takeBytes()
/// ```
package struct PGCopyEncoder {
    /// The signature `PGCOPY\n\377\r\n\0`, 32-bit flags (0: no OIDs) and a 32-bit header-extension length (0).
    static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]

    /// The most fields a tuple can have (its count is 16 bits; PostgreSQL allows 1,664 columns).
    static let maximumFields = Int(Int16.max)

    /// The bytes built and not yet taken.
    package private(set) var bytes: [UInt8]

    /// An encoder whose bytes start with the header.
    package init() {
        bytes = Self.header
    }

    /// Appends one tuple.
    package mutating func appendRow(_ values: [PGValue]) throws {
        guard values.count <= Self.maximumFields else {
            throw DataStoreError(.invalidArgument, "A COPY row has \(values.count) fields; the binary format "
                + "holds at most \(Self.maximumFields).")
        }
        bytes.appendBigEndian(Int16(values.count))
        for value in values {
            guard let length = value.binaryLength else {
                bytes.appendBigEndian(Int32(-1))
                continue
            }
            guard let length32 = Int32(exactly: length) else {
                throw DataStoreError(.invalidArgument, "A COPY field of \(length) bytes is larger than a field can be.")
            }
            bytes.appendBigEndian(length32)
            value.appendBinary(to: &bytes)
        }
    }

    /// Appends the trailer, a field count of -1, which ends the data.
    package mutating func appendTrailer() {
        bytes.appendBigEndian(Int16(-1))
    }

    /// Returns the bytes built so far and empties the buffer, keeping its capacity.
    package mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }
}
