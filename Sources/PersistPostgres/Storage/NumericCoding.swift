import Foundation
import Persist

/// PostgreSQL's binary `numeric`: a digit count, a weight, a sign, a display scale, and base-10000
/// digits, all 16-bit big-endian. The value is Σ digit[i] × 10000^(weight − i); the display scale
/// is how many decimal places it shows (`5` and `5.0` are equal numerics with scales 0 and 1).
///
/// Persist reads a numeric as an exact `Decimal` (see ``decimal(of:)``); it writes a decimal
/// exactly, an integer exactly and a double as its shortest decimal with at least one decimal
/// place.
enum NumericCoding {
    static let positive: UInt16 = 0x0000
    static let negative: UInt16 = 0x4000
    static let nan: UInt16 = 0xC000
    static let positiveInfinity: UInt16 = 0xD000
    static let negativeInfinity: UInt16 = 0xF000

    /// A decoded numeric: a special value, or a decimal with its display scale.
    enum Decoded: Equatable {
        case nan, positiveInfinity, negativeInfinity
        /// `text` is the plain decimal (`-12.50`), with exactly `scale` decimal places.
        case finite(text: String, scale: Int)
    }

    /// Decodes the binary form; `nil` when the bytes are not one.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Decoded? {
        guard bytes.count >= 8 else { return nil }
        func word(_ index: Int) -> UInt16 { UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]) }
        let count = Int(Int16(bitPattern: word(0)))
        let weight = Int(Int16(bitPattern: word(2)))
        let sign = word(4)
        let scale = Int(Int16(bitPattern: word(6)))
        switch sign {
        case nan: return .nan
        case positiveInfinity: return .positiveInfinity
        case negativeInfinity: return .negativeInfinity
        case positive, negative: break
        default: return nil
        }
        guard count >= 0, scale >= 0, bytes.count == 8 + 2 * count else { return nil }
        var digits: [Int] = []
        for index in 0..<count {
            let digit = Int(word(8 + 2 * index))
            guard digit < 10_000 else { return nil }
            digits.append(digit)
        }
        // Integer part: groups with exponent weight ... 0.
        var integer = ""
        if weight >= 0 {
            for position in 0...weight {
                let digit = position < digits.count ? digits[position] : 0
                integer += position == 0 ? String(digit) : pad4(digit)
            }
        } else {
            integer = "0"
        }
        var fraction = ""
        if scale > 0 {
            var position = weight + 1
            while fraction.utf8.count < scale {
                let digit = position >= 0 && position < digits.count ? digits[position] : 0
                fraction += position < 0 ? "0000" : pad4(digit)
                position += 1
            }
            fraction = String(fraction.prefix(scale))
        }
        let isZero = digits.allSatisfy { $0 == 0 }
        let body = scale > 0 ? "\(integer).\(fraction)" : integer
        return .finite(text: sign == negative && !isZero ? "-" + body : body, scale: scale)
    }

    private static func pad4(_ digit: Int) -> String {
        let text = String(digit)
        return String(repeating: "0", count: 4 - text.count) + text
    }

    /// The exact decimal Persist reads from a numeric: NaN as `Decimal.nan`.
    ///
    /// - Throws: ``DecodingFailure`` (`unsupported`) for ±Infinity and for a number of more than
    ///   38 significant digits, which no `Decimal` holds exactly.
    static func decimal(of decoded: Decoded) throws -> Decimal {
        switch decoded {
        case .nan: return .nan
        case .positiveInfinity, .negativeInfinity:
            throw DecodingFailure("holds the numeric \(decoded == .positiveInfinity ? "" : "-")Infinity, which no Decimal "
                + "holds; change it with SQL or leave the column out", code: .unsupported)
        case .finite(let text, _):
            guard let decimal = DecimalText.parse(text) else {
                throw DecodingFailure("holds the numeric \(text), which no Decimal holds exactly (38 significant digits "
                    + "at most, exponents to ±127), so it cannot be copied exactly, nor read; round it with SQL or leave "
                    + "the column out", code: .unsupported)
            }
            return decimal
        }
    }

    /// The binary numeric for an exact decimal, with as many decimal places as it has; `nil` when
    /// a `numeric(precision, scale)` cannot hold its integer digits (the server's "numeric field
    /// overflow" would name no column).
    static func encode(_ value: Decimal, precision: Int?, scale: Int?) -> [UInt8]? {
        if value.isNaN { return special(nan) }
        let text = DecimalText.text(value)
        guard let (digits, exponent) = decimal(ofText: text) else { return nil }
        if let precision, digits != "0" {
            let integerDigits = digits.utf8.count + exponent
            guard integerDigits <= precision - (scale ?? 0) else { return nil }
        }
        return encode(negative: text.hasPrefix("-"), digits: digits, exponent: exponent, scale: max(0, -exponent))
    }

    /// The binary numeric for an integer, exactly.
    static func encode(_ value: Int64) -> [UInt8] {
        encode(negative: value < 0, digits: String(value.magnitude), exponent: 0, scale: 0)
    }

    /// The binary numeric for a double: its shortest decimal with at least one decimal place;
    /// NaN and the infinities as themselves. `nil` for -0.0, which a numeric cannot hold.
    static func encode(_ value: Double) -> [UInt8]? {
        if value.isNaN { return special(nan) }
        if value.isInfinite { return special(value < 0 ? negativeInfinity : positiveInfinity) }
        if value == 0 && value.sign == .minus { return nil }
        guard let (digits, exponent) = decimal(of: value.magnitude) else { return nil }
        return encode(negative: value < 0, digits: digits, exponent: exponent, scale: max(1, -exponent))
    }

    /// The shortest decimal of a finite double (Swift's own rendering) as significant digits and a
    /// power of ten: `0.25` is ("25", -2).
    static func decimal(of value: Double) -> (digits: String, exponent: Int)? {
        decimal(ofNumber: "\(value)")
    }

    /// Whether `double` is exactly the number `text` writes (a plain decimal, or one with an
    /// exponent): compared digit by digit, as the shortest decimal of the double.
    ///
    /// ```swift
    /// NumericCoding.isExact(0.1, "0.1")                        // true
    /// NumericCoding.isExact(0.1, "0.1000000000000000000001")   // false
    /// ```
    static func isExact(_ double: Double, _ text: String) -> Bool {
        guard double.isFinite, let kept = decimal(of: double.magnitude), let written = decimal(ofNumber: text) else {
            return false
        }
        return kept == written
    }

    /// The significant digits and power of ten of a number's magnitude written as a plain
    /// decimal or with an exponent (`-1.25e3` is ("125", 1)), as ``decimal(ofText:)`` gives them.
    static func decimal(ofNumber text: String) -> (digits: String, exponent: Int)? {
        guard let marker = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return decimal(ofText: text) }
        guard let power = Int(text[text.index(after: marker)...]),
              let (digits, exponent) = decimal(ofText: String(text[..<marker])) else { return nil }
        return (digits, digits == "0" ? 0 : exponent + power)
    }

    /// How many significant digits a plain decimal has (`-0.0120` has 2): from its first nonzero
    /// digit to its last.
    static func significantDigits(of text: String) -> Int {
        var first: Int?
        var last = 0
        var position = 0
        for byte in text.utf8 where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
            if byte != UInt8(ascii: "0") {
                if first == nil { first = position }
                last = position
            }
            position += 1
        }
        return first.map { last - $0 + 1 } ?? 0
    }

    /// The significant digits and power of ten of a plain decimal's magnitude (`-12.50` is ("125",
    /// -1)), as ``decimal(of:)`` gives them for a double; `nil` for text that is not one.
    static func decimal(ofText text: String) -> (digits: String, exponent: Int)? {
        var digits = ""
        var exponent = 0
        var seenPoint = false
        for character in text.drop(while: { $0 == "-" }) {
            if character == "." {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if let digit = character.wholeNumberValue, character.isASCII {
                digits.append(String(digit))
                if seenPoint { exponent -= 1 }
            } else {
                return nil
            }
        }
        var significant = String(digits.drop { $0 == "0" })
        if significant.isEmpty { return ("0", 0) }
        while significant.count > 1, significant.hasSuffix("0") {
            significant.removeLast()
            exponent += 1
        }
        return (significant, exponent)
    }

    private static func special(_ sign: UInt16) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendBigEndian(UInt16(0))
        bytes.appendBigEndian(UInt16(0))
        bytes.appendBigEndian(sign)
        bytes.appendBigEndian(UInt16(0))
        return bytes
    }

    /// value = digits × 10^exponent, shown with `scale` decimal places.
    static func encode(negative: Bool, digits: String, exponent: Int, scale: Int) -> [UInt8] {
        // Decimal digits placed at powers of ten, from 10^(count - 1 + exponent) down to 10^exponent.
        let decimals = digits.utf8.map { Int($0 - UInt8(ascii: "0")) }
        let top = decimals.count - 1 + exponent
        let bottom = exponent
        // Base-10000 groups: group g covers powers 4g ... 4g + 3.
        func group(of power: Int) -> Int { power >= 0 ? power / 4 : -((-power + 3) / 4) }
        let highest = group(of: top)
        let lowest = group(of: bottom)
        var groups: [Int] = []
        var g = highest
        while g >= lowest {
            var value = 0
            for offset in stride(from: 3, through: 0, by: -1) {
                let power = 4 * g + offset
                let index = top - power
                let digit = index >= 0 && index < decimals.count ? decimals[index] : 0
                value = value * 10 + digit
            }
            groups.append(value)
            g -= 1
        }
        var weight = highest
        while let first = groups.first, first == 0 {
            groups.removeFirst()
            weight -= 1
        }
        while let last = groups.last, last == 0 { groups.removeLast() }
        if groups.isEmpty { weight = 0 }
        var bytes: [UInt8] = []
        bytes.appendBigEndian(UInt16(groups.count))
        bytes.appendBigEndian(UInt16(bitPattern: Int16(truncatingIfNeeded: weight)))
        bytes.appendBigEndian(negative && !groups.isEmpty ? NumericCoding.negative : positive)
        bytes.appendBigEndian(UInt16(clamping: scale))
        for value in groups { bytes.appendBigEndian(UInt16(value)) }
        return bytes
    }
}
