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
/// | `02` | int, double, decimal | the ``OrderedNumberCoding`` magnitude, then `00` (int), `01` (double), `02` (-0.0) or `03` (decimal) |
/// | `03` | date | the magnitude of its seconds since 2001-01-01, then `01`, or `02` for -0.0 |
/// | `04` | string | its UTF-8 bytes |
/// | `05` | bytes | the bytes |
/// | `06` | array | its binary value encoding |
/// | `07` | object | its binary value encoding |
///
/// Tags follow the order of kinds in sorting (bool, number, date, string, bytes, array, object),
/// numbers and dates compare by magnitude, strings by UTF-8 bytes, bytes by bytes. The byte after
/// a magnitude only tells equal numbers of different kinds apart (`1`, `1.0` and the decimal 1),
/// which compare equal: requests compare and sort without it.
///
/// A decimal equal to a 64-bit integer has the integer's magnitude, and one that is the shortest
/// text of a double (`0.1`) the double's, as the predicate semantics compare them. Any other
/// decimal has the magnitude of the double next to it towards zero (for a negative one, away from
/// zero), then `04` and its digits in order: a 16-bit exponent (the power of ten of its leading
/// digit, plus 32768) and its significant digits in ASCII, all complemented and ended by `FF` when
/// negative. So `04` sorts it after every number of that magnitude and before the next one.
enum MixedValueCoding {
    static let boolTag: UInt8 = 1
    static let numberTag: UInt8 = 2
    static let dateTag: UInt8 = 3
    static let stringTag: UInt8 = 4
    static let bytesTag: UInt8 = 5
    static let arrayTag: UInt8 = 6
    static let objectTag: UInt8 = 7
    /// Decimals before they sorted with the numbers: the tag, then their ``DecimalText``; still read.
    static let legacyDecimalTag: UInt8 = 8

    static let integerKind: UInt8 = 0
    static let doubleKind: UInt8 = 1
    static let negativeZeroKind: UInt8 = 2
    static let decimalKind: UInt8 = 3
    /// After a magnitude: the digits of a decimal that no integer or double equals follow.
    static let digitsMarker: UInt8 = 4

    /// The tag of a value's kind; `nil` for `.null`.
    static func tag(of value: Value) -> UInt8? {
        switch value {
        case .null: nil
        case .bool: boolTag
        case .int, .double, .decimal: numberTag
        case .date: dateTag
        case .string: stringTag
        case .bytes: bytesTag
        case .array: arrayTag
        case .object: objectTag
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
            bytes.append(numberTag)
            appendMagnitude(of: decimal, to: &bytes)
            bytes.append(decimalKind)
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
            if tag == numberTag && kind == decimalKind {
                guard let decimal = decimal(fromMagnitude: magnitude) else { throw corrupt("a bad decimal") }
                return .decimal(decimal)
            }
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
        case legacyDecimalTag:
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

    /// Appends a decimal's magnitude, and its digits where no integer or double equals it.
    private static func appendMagnitude(of decimal: Decimal, to bytes: inout [UInt8]) {
        if decimal.isNaN {
            bytes.append(OrderedNumberCoding.nanClass)
            return
        }
        let text = DecimalText.text(decimal)
        if let integer = Int64(text) {
            OrderedNumberCoding.append(integer, to: &bytes)
            return
        }
        guard let nearest = Double(text), nearest.isFinite, let spelled = DecimalText.decimal(nearest: nearest),
              let (digits, exponent) = NumericCoding.decimal(ofText: text) else {
            // Every finite Decimal is within the doubles' range; nothing to order by otherwise.
            bytes.append(OrderedNumberCoding.zeroClass)
            return
        }
        if spelled == decimal {
            OrderedNumberCoding.append(nearest, to: &bytes)
            return
        }
        // The magnitude of the greatest integer or double below the decimal, then its digits: it
        // sorts after that number and before the next one. (Above 2^53, integers lie between
        // neighbouring doubles.)
        let negative = decimal < 0
        let doubleBelow = decimal < spelled ? nearest.nextDown : nearest
        if let integerBelow = Self.integer(below: decimal, text: text),
           ValueSemantics.compare(integerBelow, doubleBelow) >= 0 {
            OrderedNumberCoding.append(integerBelow, to: &bytes)
        } else {
            OrderedNumberCoding.append(doubleBelow, to: &bytes)
        }
        bytes.append(digitsMarker)
        let biased = UInt16(truncatingIfNeeded: digits.utf8.count + exponent + 32768)
        bytes.appendBigEndian(negative ? ~biased : biased)
        if negative {
            bytes.append(contentsOf: digits.utf8.map { ~$0 })
            bytes.append(0xFF)
        } else {
            bytes.append(contentsOf: digits.utf8)
        }
    }

    /// The greatest 64-bit integer below a decimal that no integer equals; `nil` below them all.
    private static func integer(below decimal: Decimal, text: String) -> Int64? {
        if decimal > Decimal(Int64.max) { return .max }
        if decimal < Decimal(Int64.min) { return nil }
        let whole = text.split(separator: ".", maxSplits: 1).first.map(String.init) ?? text
        guard let truncated = Int64(whole == "-0" ? "0" : whole) else { return nil }
        return decimal < 0 ? truncated - 1 : truncated
    }

    /// The decimal a magnitude (and any digits after it) holds; `nil` when it holds none.
    private static func decimal(fromMagnitude body: ArraySlice<UInt8>) -> Decimal? {
        guard let first = body.first else { return nil }
        if first == OrderedNumberCoding.nanClass { return body.count == 1 ? .nan : nil }
        if let (value, end) = OrderedNumberCoding.decode(body, asInteger: true), end == body.endIndex,
           case .int(let integer) = value {
            return Decimal(integer)
        }
        let end: Int
        if let (value, doubleEnd) = OrderedNumberCoding.decode(body, asInteger: false), case .double(let double) = value,
           double.isFinite {
            if doubleEnd == body.endIndex { return DecimalText.decimal(nearest: double) }
            end = doubleEnd
        } else if let (_, integerEnd) = OrderedNumberCoding.decode(body, asInteger: true), integerEnd < body.endIndex {
            end = integerEnd
        } else {
            return nil
        }
        let negative = first == OrderedNumberCoding.negativeClass
        var digitBytes = body[(end + 1)...]
        guard body[end] == digitsMarker, digitBytes.count >= 3 else { return nil }
        var biased = UInt16(digitBytes[digitBytes.startIndex]) << 8 | UInt16(digitBytes[digitBytes.startIndex + 1])
        digitBytes = digitBytes.dropFirst(2)
        if negative {
            guard digitBytes.last == 0xFF else { return nil }
            biased = ~biased
            digitBytes = digitBytes.dropLast()
        }
        let digits = digitBytes.map { negative ? ~$0 : $0 }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let exponent = Int(biased) - 32768 - digits.count
        return DecimalText.parse((negative ? "-" : "") + String(decoding: digits, as: UTF8.self) + "e\(exponent)")
    }
}
