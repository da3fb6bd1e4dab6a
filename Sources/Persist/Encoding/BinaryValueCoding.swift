import Foundation

/// The compact, canonical binary encoding of a ``Value``, shared by every store that keeps values
/// as bytes (the records of key-value files, nested values in SQL columns) and by migration checksums.
///
/// The format is documented in <doc:BinaryValueEncoding>. Encoding is canonical: equal values
/// (``Value``'s `==`) always encode to the same bytes, because every NaN is written as one bit
/// pattern and object keys are written in ascending UTF-8 byte order. Decoding checks every byte
/// and throws ``DataStoreError/Code/corrupt`` for anything malformed; it never traps.
///
/// ```swift
/// let bytes = BinaryValueCoding.encode(["rating": 4, "tags": ["wood-fired"]])
/// let value = try BinaryValueCoding.decode(bytes)
/// ```
public enum BinaryValueCoding {
    /// The tag byte that starts each encoded value.
    package enum Tag: UInt8, Sendable, CaseIterable {
        case null = 0x00
        case `false` = 0x01
        case `true` = 0x02
        case int = 0x03
        case double = 0x04
        case string = 0x05
        case bytes = 0x06
        case date = 0x07
        case array = 0x08
        case object = 0x09
        /// An exact decimal: its ``DecimalText`` as a length-prefixed string.
        case decimal = 0x0A
    }

    /// How deeply arrays and objects may nest; deeper input is rejected as corrupt.
    public static let maximumDepth = 512

    /// The bit pattern every NaN is written with.
    public static let canonicalNaN: UInt64 = 0x7FF8_0000_0000_0000

    /// The encoding of `value`.
    public static func encode(_ value: Value) -> [UInt8] {
        var buffer: [UInt8] = []
        encode(value, into: &buffer)
        return buffer
    }

    /// Appends the encoding of `value` to `buffer`.
    public static func encode(_ value: Value, into buffer: inout [UInt8]) {
        switch value {
        case .null:
            buffer.append(Tag.null.rawValue)
        case .bool(let bool):
            buffer.append(bool ? Tag.true.rawValue : Tag.false.rawValue)
        case .int(let int):
            buffer.append(Tag.int.rawValue)
            appendVarint(zigzag(int), to: &buffer)
        case .double(let double):
            buffer.append(Tag.double.rawValue)
            appendFixed64(bits(of: double), to: &buffer)
        case .string(let string):
            buffer.append(Tag.string.rawValue)
            appendLengthPrefixed(string, to: &buffer)
        case .decimal(let decimal):
            buffer.append(Tag.decimal.rawValue)
            appendLengthPrefixed(DecimalText.text(decimal), to: &buffer)
        case .bytes(let bytes):
            buffer.append(Tag.bytes.rawValue)
            appendVarint(UInt64(bytes.count), to: &buffer)
            buffer.append(contentsOf: bytes)
        case .date(let date):
            buffer.append(Tag.date.rawValue)
            appendFixed64(bits(of: date.timeIntervalSinceReferenceDate), to: &buffer)
        case .array(let elements):
            buffer.append(Tag.array.rawValue)
            appendVarint(UInt64(elements.count), to: &buffer)
            for element in elements { encode(element, into: &buffer) }
        case .object(let object):
            buffer.append(Tag.object.rawValue)
            appendVarint(UInt64(object.count), to: &buffer)
            for key in sortedKeys(object) {
                appendLengthPrefixed(key, to: &buffer)
                encode(object[key] ?? .null, into: &buffer)
            }
        }
    }

    /// Decodes exactly one value that fills `bytes`.
    ///
    /// - Throws: ``DataStoreError/Code/corrupt`` for truncated, malformed or trailing bytes.
    public static func decode(_ bytes: [UInt8]) throws -> Value {
        try bytes.withUnsafeBytes { buffer in
            var reader = ByteReader(buffer)
            let value = try decodeValue(from: &reader)
            try reader.expectEnd()
            return value
        }
    }

    /// Decodes one value at the reader's position and advances past it.
    package static func decodeValue(from reader: inout ByteReader) throws -> Value {
        try decodeValue(from: &reader, depth: 0)
    }

    private static func decodeValue(from reader: inout ByteReader, depth: Int) throws -> Value {
        let tagOffset = reader.offset
        let byte = try reader.readByte()
        guard let tag = Tag(rawValue: byte) else {
            throw ByteReader.corrupt("unknown value tag 0x\(String(byte, radix: 16)) at byte \(tagOffset)")
        }
        switch tag {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .int: return .int(unzigzag(try reader.readVarint()))
        case .double: return .double(Double(bitPattern: try reader.readFixed64()))
        case .string: return .string(try reader.readLengthPrefixedString())
        case .decimal:
            let textOffset = reader.offset
            let text = try reader.readLengthPrefixedString()
            guard let decimal = DecimalText.parse(text), DecimalText.text(decimal) == text else {
                throw ByteReader.corrupt("a decimal at byte \(textOffset) is not in its canonical form: \(String(reflecting: text))")
            }
            return .decimal(decimal)
        case .bytes:
            let count = try reader.readLength()
            return .bytes(try reader.readBytes(count))
        case .date:
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.readFixed64())))
        case .array:
            guard depth < maximumDepth else { throw ByteReader.corrupt("values nest deeper than \(maximumDepth) levels") }
            let count = try reader.readLength(minimumBytesEach: 1)
            var elements: [Value] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try decodeValue(from: &reader, depth: depth + 1)) }
            return .array(elements)
        case .object:
            guard depth < maximumDepth else { throw ByteReader.corrupt("values nest deeper than \(maximumDepth) levels") }
            let count = try reader.readLength(minimumBytesEach: 2)
            var object: [String: Value] = [:]
            object.reserveCapacity(count)
            var previousKey: String?
            for _ in 0..<count {
                let keyOffset = reader.offset
                let key = try reader.readLengthPrefixedString()
                if let previousKey, ByteOrder.compare(previousKey, key) >= 0 {
                    throw ByteReader.corrupt("object keys out of order or repeated at byte \(keyOffset)")
                }
                let value = try decodeValue(from: &reader, depth: depth + 1)
                if object.updateValue(value, forKey: key) != nil {
                    throw ByteReader.corrupt("object key \(String(reflecting: key)) repeated at byte \(keyOffset)")
                }
                previousKey = key
            }
            return .object(object)
        }
    }

    /// Object keys in ascending UTF-8 byte order, the order the encoding writes them in.
    package static func sortedKeys(_ object: [String: Value]) -> [String] {
        object.keys.sorted { ByteOrder.compare($0, $1) < 0 }
    }

    // MARK: Primitive writers, shared with record formats

    /// ZigZag maps signed integers to unsigned so that small magnitudes encode in few bytes.
    package static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// The inverse of ``zigzag(_:)``.
    package static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// Appends `value` as an unsigned LEB128 varint (1 to 10 bytes).
    package static func appendVarint(_ value: UInt64, to buffer: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        buffer.append(UInt8(rest))
    }

    /// Appends `value` as 8 big-endian bytes.
    package static func appendFixed64(_ value: UInt64, to buffer: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) {
            buffer.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// Appends a varint byte count and the string's UTF-8 bytes.
    package static func appendLengthPrefixed(_ string: String, to buffer: inout [UInt8]) {
        var string = string
        string.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count), to: &buffer)
            buffer.append(contentsOf: utf8)
        }
    }

    /// The bits a double is written with: its own, except one pattern for every NaN.
    package static func bits(of double: Double) -> UInt64 {
        double.isNaN ? canonicalNaN : double.bitPattern
    }
}
