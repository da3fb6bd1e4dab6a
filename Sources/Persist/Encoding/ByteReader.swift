import Foundation

/// A bounds-checked cursor over bytes, for decoders that must never trap on malformed input.
///
/// Every read checks the remaining length first and throws ``DataStoreError/Code/corrupt`` when
/// the bytes run out or do not make sense; lengths read from the input are checked against what is
/// left before anything is allocated.
///
/// ```swift
/// try bytes.withUnsafeBytes { buffer in
///     var reader = ByteReader(buffer)
///     let version = try reader.readByte()
///     let value = try BinaryValueCoding.decodeValue(from: &reader)
///     try reader.expectEnd()
/// }
/// ```
package struct ByteReader {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    /// The position of the next byte to read.
    @usableFromInline package internal(set) var offset: Int = 0

    /// A reader over `bytes`, which must stay valid while the reader is used.
    @inlinable @inline(__always) package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// How many bytes are left.
    @inlinable @inline(__always) package var remaining: Int { bytes.count - offset }

    /// Whether every byte has been read.
    @inlinable @inline(__always) package var isAtEnd: Bool { offset >= bytes.count }

    @usableFromInline static func corrupt(_ message: String) -> DataStoreError {
        DataStoreError(.corrupt, message)
    }

    /// Checks that `count` bytes remain. The message is built only on failure, out of line, so
    /// that the check itself stays a comparison in the decoders' loops.
    @inlinable @inline(__always) func require(_ count: Int, _ what: StaticString) throws {
        guard count >= 0, count <= bytes.count &- offset else { throw shortage(count, what) }
    }

    @usableFromInline @inline(never) func shortage(_ count: Int, _ what: StaticString) -> DataStoreError {
        Self.corrupt("\(what) needs \(count) bytes at byte \(offset) but only \(remaining) remain")
    }

    /// Reads one byte.
    @inlinable @inline(__always) package mutating func readByte() throws -> UInt8 {
        guard offset < bytes.count else { throw shortage(1, "a byte") }
        let byte = bytes[offset]
        offset += 1
        return byte
    }

    /// Reads `count` bytes.
    package mutating func readBytes(_ count: Int) throws -> [UInt8] {
        try require(count, "a byte string")
        let slice = [UInt8](bytes[offset..<(offset + count)])
        offset += count
        return slice
    }

    /// Calls `body` with the next `count` bytes, without copying them, and advances past them.
    package mutating func withBytes<R>(_ count: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try require(count, "a byte string")
        let start = offset
        offset += count
        return try body(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]))
    }

    /// Skips `count` bytes.
    @inlinable @inline(__always) package mutating func skip(_ count: Int) throws {
        try require(count, "skipped bytes")
        offset += count
    }

    /// Reads 8 big-endian bytes.
    @inlinable @inline(__always) package mutating func readFixed64() throws -> UInt64 {
        try require(8, "a 64-bit number")
        let value = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        offset += 8
        return value
    }

    /// Reads 4 big-endian bytes.
    package mutating func readFixed32() throws -> UInt32 {
        try require(4, "a 32-bit number")
        var value: UInt32 = 0
        for index in offset..<(offset + 4) { value = value << 8 | UInt32(bytes[index]) }
        offset += 4
        return value
    }

    /// Reads an unsigned LEB128 varint, rejecting overlong and overflowing forms.
    @inlinable @inline(__always) package mutating func readVarint() throws -> UInt64 {
        // One byte is the common case: counts, lengths and small integers.
        if offset < bytes.count, bytes[offset] < 0x80 {
            defer { offset += 1 }
            return UInt64(bytes[offset])
        }
        return try readLongVarint()
    }

    @usableFromInline mutating func readLongVarint() throws -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            if shift == 63 && byte > 1 {
                throw Self.corrupt("varint at byte \(start) overflows 64 bits")
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                if byte == 0 && shift > 0 { throw Self.corrupt("varint at byte \(start) is not in its shortest form") }
                return value
            }
            shift += 7
        }
    }

    /// Reads a varint count and checks that `count × minimumBytesEach` bytes remain.
    @inlinable @inline(__always) package mutating func readLength(minimumBytesEach: Int = 1) throws -> Int {
        let start = offset
        let value = try readVarint()
        let (needed, overflow) = value.multipliedReportingOverflow(by: UInt64(max(minimumBytesEach, 1)))
        guard !overflow, needed <= UInt64(remaining) else { throw tooLong(value, at: start) }
        return Int(value)
    }

    @usableFromInline @inline(never) func tooLong(_ value: UInt64, at start: Int) -> DataStoreError {
        Self.corrupt("length \(value) at byte \(start) is larger than the \(remaining) bytes that remain")
    }

    /// Reads a varint byte count and that many bytes of valid UTF-8.
    package mutating func readLengthPrefixedString() throws -> String {
        let start = offset
        let count = try readLength()
        return try withBytes(count) { raw in
            guard let string = Self.validUTF8(raw) else {
                throw Self.corrupt("string at byte \(start) is not valid UTF-8")
            }
            return string
        }
    }

    /// The string whose UTF-8 bytes are exactly `raw`, or `nil` when they are not valid UTF-8.
    ///
    /// Decoders use it instead of the generic `String(validating:as:)`, which looks up generic
    /// metadata at run time on every call and dominated decoding.
    ///
    /// ```swift
    /// let name = [UInt8]("café".utf8).withUnsafeBytes(ByteReader.validUTF8)   // "café"
    /// let bad = [UInt8]([0xC3, 0x28]).withUnsafeBytes(ByteReader.validUTF8)   // nil
    /// ```
    package static func validUTF8(_ raw: UnsafeRawBufferPointer) -> String? {
        // Decoding repairs invalid input (with U+FFFD), so the input was valid exactly when the
        // decoded string has the very same bytes.
        let units = UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count)
        // ASCII, the common case, is valid UTF-8 as it is: no need to decode twice.
        if isASCII(raw) { return String(decoding: units, as: UTF8.self) }
        var string = String(decoding: units, as: UTF8.self)
        let unchanged = string.withUTF8 { decoded -> Bool in
            guard decoded.count == units.count else { return false }
            guard let left = decoded.baseAddress, let right = units.baseAddress else { return true }
            return memcmp(left, right, decoded.count) == 0
        }
        return unchanged ? string : nil
    }

    /// Whether every byte is below 0x80, tested eight at a time.
    ///
    /// ```swift
    /// [UInt8]("abc".utf8).withUnsafeBytes(ByteReader.isASCII)   // true
    /// ```
    @inlinable
    package static func isASCII(_ raw: UnsafeRawBufferPointer) -> Bool {
        // The bytes' high bits gathered without a branch per word: text is short, and mostly ASCII.
        var bits: UInt64 = 0
        var index = 0
        while index + 8 <= raw.count {
            bits |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < raw.count {
            bits |= UInt64(raw[index])
            index += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    /// Throws unless every byte has been read.
    package func expectEnd() throws {
        if !isAtEnd {
            throw Self.corrupt("\(remaining) unexpected bytes after the end at byte \(offset)")
        }
    }
}
