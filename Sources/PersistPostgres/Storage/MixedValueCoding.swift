import Foundation
import Persist

/// The encoding of a *mixed* column: a `bytea` whose first byte says the value's kind and whose
/// byte order is the predicate semantics' order, so that one column can hold values of every
/// kind and still be filtered and sorted by PostgreSQL.
///
/// A column the store created widens to this encoding when it meets a value its native type
/// cannot hold (another kind, or a string with a NUL character), and a created table's key column
/// when it meets identifiers of several kinds.
///
/// | tag | kind | then |
/// |---|---|---|
/// | `01` | bool | `00` or `01` |
/// | `02` | int, double | the ``OrderedNumberCoding`` magnitude, then `00` (int), `01` (double) or `02` (-0.0) |
/// | `03` | date | the magnitude of its seconds since 2001-01-01, then `01`, or `02` for -0.0 |
/// | `04` | string | its UTF-8 bytes |
/// | `05` | bytes | the bytes |
/// | `06` | array | its binary value encoding |
/// | `07` | object | its binary value encoding |
///
/// Tags follow the order of kinds in sorting (bool, number, date, string, bytes, array, object),
/// numbers and dates compare by magnitude, strings by UTF-8 bytes, bytes by bytes. The byte after
/// a magnitude only tells equal numbers of different kinds apart (`1` and `1.0`), which compare
/// equal: requests compare and sort without it.
enum MixedValueCoding {
    static let boolTag: UInt8 = 1
    static let numberTag: UInt8 = 2
    static let dateTag: UInt8 = 3
    static let stringTag: UInt8 = 4
    static let bytesTag: UInt8 = 5
    static let arrayTag: UInt8 = 6
    static let objectTag: UInt8 = 7
    /// An exact decimal: its ``DecimalText``.
    static let decimalTag: UInt8 = 8

    static let integerKind: UInt8 = 0
    static let doubleKind: UInt8 = 1
    static let negativeZeroKind: UInt8 = 2

    /// The tag of a value's kind; `nil` for `.null`.
    static func tag(of value: Value) -> UInt8? {
        switch value {
        case .null: nil
        case .bool: boolTag
        case .int, .double: numberTag
        case .date: dateTag
        case .string: stringTag
        case .bytes: bytesTag
        case .array: arrayTag
        case .object: objectTag
        case .decimal: decimalTag
        }
    }

    /// The encoding of a non-null value.
    static func encode(_ value: Value) -> [UInt8] {
        var bytes: [UInt8] = []
        switch value {
        case .null:
            break
        case .bool(let bool):
            bytes = [boolTag, bool ? 1 : 0]
        case .int(let int):
            bytes.append(numberTag)
            OrderedNumberCoding.append(int, to: &bytes)
            bytes.append(integerKind)
        case .double(let double):
            bytes.append(numberTag)
            OrderedNumberCoding.append(double, to: &bytes)
            bytes.append(kind(of: double))
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            bytes.append(dateTag)
            OrderedNumberCoding.append(seconds, to: &bytes)
            bytes.append(kind(of: seconds))
        case .string(let string):
            bytes.reserveCapacity(string.utf8.count + 1)
            bytes.append(stringTag)
            bytes.append(contentsOf: string.utf8)
        case .bytes(let raw):
            bytes.reserveCapacity(raw.count + 1)
            bytes.append(bytesTag)
            bytes.append(contentsOf: raw)
        case .array:
            bytes.append(arrayTag)
            BinaryValueCoding.encode(value, into: &bytes)
        case .object:
            bytes.append(objectTag)
            BinaryValueCoding.encode(value, into: &bytes)
        case .decimal(let decimal):
            bytes.append(decimalTag)
            bytes.append(contentsOf: DecimalText.text(decimal).utf8)
        }
        return bytes
    }

    private static func kind(of double: Double) -> UInt8 {
        double == 0 && double.sign == .minus ? negativeZeroKind : doubleKind
    }

    /// The bytes requests compare with: the tag and the magnitude of a number or date, without
    /// the kind byte; the whole encoding of other values.
    static func comparable(_ value: Value) -> [UInt8] {
        var bytes = encode(value)
        if let tag = bytes.first, tag == numberTag || tag == dateTag { bytes.removeLast() }
        return bytes
    }

    /// The value an encoding holds.
    ///
    /// - Throws: ``DecodingFailure`` when the bytes are not an encoding.
    static func decode(_ bytes: ArraySlice<UInt8>) throws -> Value {
        func corrupt(_ detail: String) -> DecodingFailure {
            DecodingFailure("holds bytes that are not a Persist mixed value: \(detail)")
        }
        guard let tag = bytes.first else { throw corrupt("it is empty") }
        let payload = bytes.dropFirst()
        switch tag {
        case boolTag:
            guard payload.count == 1, let byte = payload.first, byte <= 1 else { throw corrupt("a bad boolean") }
            return .bool(byte == 1)
        case numberTag, dateTag:
            guard let kind = payload.last else { throw corrupt("a number without a kind") }
            let magnitude = payload.dropLast()
            let isInteger = tag == numberTag && kind == integerKind
            guard kind <= negativeZeroKind, tag == numberTag || kind != integerKind,
                  let (number, end) = OrderedNumberCoding.decode(magnitude, asInteger: isInteger),
                  end == magnitude.endIndex else {
                throw corrupt("a bad number")
            }
            var double = number.doubleValue ?? 0
            if kind == negativeZeroKind {
                guard double == 0 else { throw corrupt("a bad negative zero") }
                double = -0.0
            }
            if tag == dateTag { return .date(Date(timeIntervalSinceReferenceDate: double)) }
            return isInteger ? number : .double(double)
        case stringTag:
            return .string(String(decoding: payload, as: UTF8.self))
        case decimalTag:
            guard let text = String(validating: payload, as: UTF8.self), let decimal = DecimalText.parse(text) else {
                throw corrupt("a bad decimal")
            }
            return .decimal(decimal)
        case bytesTag:
            return .bytes(Array(payload))
        case arrayTag, objectTag:
            let value: Value
            do {
                value = try BinaryValueCoding.decode(Array(payload))
            } catch let error as DataStoreError {
                throw corrupt(error.message)
            }
            guard (tag == arrayTag) == (value.kind == .array), value.kind == .array || value.kind == .object else {
                throw corrupt("a nested value of another kind")
            }
            return value
        default:
            throw corrupt("the unknown tag \(tag)")
        }
    }
}
