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
        let start = mark
        do {
            try beginRow(fields: values.count)
            for value in values { try appendField(value) }
        } catch {
            truncate(to: start)
            throw error
        }
    }

    // MARK: Fields one at a time

    /// Where the next row would start: give it to ``truncate(to:)`` to take back a row begun and
    /// not finished.
    package var mark: Int { bytes.count }

    /// Drops everything appended since `mark` was read.
    package mutating func truncate(to mark: Int) {
        bytes.removeSubrange(mark...)
    }

    /// Starts a tuple of `count` fields, which the caller appends next (at most
    /// ``maximumFields``).
    package mutating func beginRow(fields count: Int) throws {
        guard count <= Self.maximumFields else {
            throw DataStoreError(.invalidArgument, "A COPY row has \(count) fields; the binary format "
                + "holds at most \(Self.maximumFields).")
        }
        bytes.appendBigEndian(Int16(count))
    }

    /// Appends a NULL field.
    package mutating func appendNull() {
        bytes.appendBigEndian(Int32(-1))
    }

    /// Appends an 8-byte field (`int8`, `float8` or `timestamptz` bits).
    package mutating func appendField(_ bits: UInt64) {
        bytes.appendBigEndian(Int32(8))
        bytes.appendBigEndian(bits)
    }

    /// Appends a `bool` field.
    package mutating func appendField(_ bool: Bool) {
        bytes.appendBigEndian(Int32(1))
        bytes.append(bool ? 1 : 0)
    }

    /// Appends a field of the UTF-8 bytes of `text` (the caller has checked it holds no NUL).
    package mutating func appendField(_ text: String) throws {
        var text = text
        try text.withUTF8 { try appendField(UnsafeRawBufferPointer($0)) }
    }

    /// Appends a field of the given bytes.
    package mutating func appendField(_ raw: UnsafeRawBufferPointer) throws {
        guard let length = Int32(exactly: raw.count) else {
            throw DataStoreError(.invalidArgument, "A COPY field of \(raw.count) bytes is larger than a field can be.")
        }
        bytes.appendBigEndian(length)
        bytes.append(contentsOf: raw)
    }

    /// Appends a field of `length` bytes that `write` appends.
    mutating func appendField(length: Int32, _ write: (inout [UInt8]) -> Void) {
        bytes.appendBigEndian(length)
        write(&bytes)
    }

    /// Appends one field of any value.
    package mutating func appendField(_ value: PGValue) throws {
        guard let length = value.binaryLength else {
            appendNull()
            return
        }
        guard let length32 = Int32(exactly: length) else {
            throw DataStoreError(.invalidArgument, "A COPY field of \(length) bytes is larger than a field can be.")
        }
        bytes.appendBigEndian(length32)
        value.appendBinary(to: &bytes)
    }

    /// Appends the trailer, a field count of -1, which ends the data.
    package mutating func appendTrailer() {
        bytes.appendBigEndian(Int16(-1))
    }

    /// Empties the buffer, keeping its capacity (once its bytes were sent).
    package mutating func clear() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Returns the bytes built so far and empties the buffer, keeping its capacity.
    package mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }
}
