import Foundation

/// The canonical bytes of the values an item holds for an index's attributes: two tuples encode to
/// the same bytes exactly when every pair of values is equal under the predicate semantics
/// (`1 == 1.0`, `-0.0 == 0.0`, NaN equals NaN, strings and bytes by their bytes, arrays and objects
/// when identical). Stores use it to find the items a unique index would refuse, and a key-value
/// store may use it as the key of its index entries.
///
/// ```swift
/// let a = IndexKey.encode([.int(1), "Leeds"])
/// let b = IndexKey.encode([.double(1.0), "Leeds"])
/// assert(a == b)
/// ```
package enum IndexKey {
    private enum Tag: UInt8 {
        case bool = 1, integer = 2, double = 3, nan = 4, date = 5, dateNaN = 6, string = 7, bytes = 8, nested = 9
        /// A decimal no integer or double equals, by its ``DecimalText``.
        case decimal = 10
    }

    /// The key of an item for the index on `attributes`, or `nil` when the item lacks one of them
    /// (an item that lacks an attribute of an index is not constrained by it, as in SQL).
    package static func key(of item: Item, attributes: [String]) -> [UInt8]? {
        var values: [Value] = []
        values.reserveCapacity(attributes.count)
        for name in attributes {
            guard let value = item.attributes[name], !value.isNull else { return nil }
            values.append(value)
        }
        return encode(values)
    }

    /// The key of a tuple of non-null values.
    package static func encode(_ values: [Value]) -> [UInt8] {
        var buffer: [UInt8] = []
        for value in values { append(value, to: &buffer) }
        return buffer
    }

    /// Appends one value: a tag byte and a self-delimiting payload.
    package static func append(_ value: Value, to buffer: inout [UInt8]) {
        switch value {
        case .null:
            buffer.append(0)
        case .bool(let bool):
            buffer.append(Tag.bool.rawValue)
            buffer.append(bool ? 1 : 0)
        case .int(let int):
            appendInteger(int, to: &buffer)
        case .double(let double):
            if double.isNaN {
                buffer.append(Tag.nan.rawValue)
            } else if let integer = exactInteger(double) {
                appendInteger(integer, to: &buffer)
            } else {
                buffer.append(Tag.double.rawValue)
                BinaryValueCoding.appendFixed64(double.bitPattern, to: &buffer)
            }
        case .decimal(let decimal):
            // Equal numbers share a key: a decimal that an integer or a double equals takes theirs.
            if decimal.isNaN {
                buffer.append(Tag.nan.rawValue)
            } else if let integer = exactInteger(decimal) {
                appendInteger(integer, to: &buffer)
            } else if let double = Double(DecimalText.text(decimal)), DecimalText.decimal(nearest: double) == decimal {
                append(.double(double), to: &buffer)
            } else {
                buffer.append(Tag.decimal.rawValue)
                BinaryValueCoding.appendLengthPrefixed(DecimalText.text(decimal), to: &buffer)
            }
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            if seconds.isNaN {
                buffer.append(Tag.dateNaN.rawValue)
            } else {
                buffer.append(Tag.date.rawValue)
                // -0.0 and 0.0 are the same instant.
                BinaryValueCoding.appendFixed64((seconds == 0 ? 0.0 : seconds).bitPattern, to: &buffer)
            }
        case .string(let string):
            buffer.append(Tag.string.rawValue)
            BinaryValueCoding.appendLengthPrefixed(string, to: &buffer)
        case .bytes(let bytes):
            buffer.append(Tag.bytes.rawValue)
            BinaryValueCoding.appendVarint(UInt64(bytes.count), to: &buffer)
            buffer.append(contentsOf: bytes)
        case .array, .object:
            // The binary value encoding is canonical for Value's own equality, which is the
            // predicate equality of arrays and objects.
            let encoded = BinaryValueCoding.encode(value)
            buffer.append(Tag.nested.rawValue)
            BinaryValueCoding.appendVarint(UInt64(encoded.count), to: &buffer)
            buffer.append(contentsOf: encoded)
        }
    }

    private static func appendInteger(_ int: Int64, to buffer: inout [UInt8]) {
        buffer.append(Tag.integer.rawValue)
        BinaryValueCoding.appendFixed64(UInt64(bitPattern: int), to: &buffer)
    }

    /// The integer a decimal equals exactly, when there is one in `Int64`'s range.
    private static func exactInteger(_ decimal: Decimal) -> Int64? {
        guard let integer = Int64(DecimalText.text(decimal)) else { return nil }
        return integer
    }

    /// The integer a double equals exactly, when there is one in `Int64`'s range (`-0.0` is 0).
    private static func exactInteger(_ double: Double) -> Int64? {
        guard double.isFinite, double == double.rounded(.towardZero),
              double >= -9_223_372_036_854_775_808.0, double < 9_223_372_036_854_775_808.0
        else { return nil }
        return Int64(double)
    }
}
