import Foundation
import Persist

/// A byte string for a number whose bytewise order is the number's exact order: how decimal
/// columns (and numbers next to decimals) are compared and sorted in SQL, where SQLite would
/// compare a REAL with a BLOB of digits by storage class.
///
/// The key of a number spelled with sign, significant digits `d₁d₂…dₙ` and value
/// `0.d₁d₂…dₙ × 10^e` is:
///
/// | number | key |
/// |---|---|
/// | NaN | `01` |
/// | -∞ | `02` |
/// | negative | `03`, the complement of `e` (4 bytes, biased, big-endian), the complemented digits, `FF` |
/// | zero | `04` |
/// | positive | `05`, `e` (4 bytes, biased, big-endian), the ASCII digits |
/// | +∞ | `06` |
///
/// so NaN is below every other number, as the predicate semantics say. Integers key exactly; a
/// double keys as the decimal its shortest text spells, which is how a double compares with a
/// decimal (see `ValueSemantics`).
enum NumberKey {
    static let nan: [UInt8] = [0x01]
    static let negativeInfinity: [UInt8] = [0x02]
    static let zero: [UInt8] = [0x04]
    static let positiveInfinity: [UInt8] = [0x06]

    /// The key of a number value (int, double or decimal); `nil` for any other value.
    static func key(_ value: Value) -> [UInt8]? {
        switch value {
        case .int(let int): key(text: String(int))
        case .double(let double): key(double)
        case .decimal(let decimal): key(text: DecimalText.text(decimal))
        default: nil
        }
    }

    /// The key of a double, as the decimal its shortest text spells.
    static func key(_ double: Double) -> [UInt8]? {
        if double.isNaN { return nan }
        if double.isInfinite { return double < 0 ? negativeInfinity : positiveInfinity }
        return key(text: "\(double)")
    }

    /// The key of a double's exact value (every binary digit of it, in decimal): how a mixed
    /// column sorts its reals among its integers, which compare with them exactly.
    static func exactKey(_ double: Double) -> [UInt8]? {
        guard double.isFinite, double != 0 else { return key(double) }
        if double == double.rounded(), abs(double) < 9.2e18, let int = Int64(exactly: double) { return key(text: String(int)) }
        // |double| = significand × 2^exponent, the significand an integer of at most 53 bits.
        var exponent = Int(double.exponent) - Double.significandBitCount
        var significand = double.significandBitPattern | (double.isNormal ? 1 << UInt64(Double.significandBitCount) : 0)
        if !double.isNormal { exponent = Int(Double.leastNormalMagnitude.exponent) - Double.significandBitCount }
        while significand & 1 == 0 {
            significand >>= 1
            exponent += 1
        }
        // Little-endian limbs of 10⁹: the significand times 2^exponent, or times 5^-exponent (then
        // the point moves -exponent places).
        var limbs: [UInt64] = [significand % 1_000_000_000, significand / 1_000_000_000 % 1_000_000_000,
                               significand / 1_000_000_000_000_000_000]
        let factor: UInt64 = exponent >= 0 ? 2 : 5
        for _ in 0..<abs(exponent) {
            var carry: UInt64 = 0
            for index in limbs.indices {
                let product = limbs[index] * factor + carry
                limbs[index] = product % 1_000_000_000
                carry = product / 1_000_000_000
            }
            if carry > 0 { limbs.append(carry) }
        }
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
        var digits = String(limbs.last ?? 0)
        for limb in limbs.dropLast().reversed() {
            let text = String(limb)
            digits += String(repeating: "0", count: 9 - text.count) + text
        }
        let sign = double < 0 ? "-" : ""
        return key(text: exponent >= 0 ? sign + digits : sign + digits + "e" + String(exponent))
    }

    /// The key of a number's text: an optional sign, digits with at most one point, an optional
    /// exponent; `NaN`, `inf` and `-inf` (any case). `nil` for any other text.
    static func key(text: some StringProtocol) -> [UInt8]? {
        switch text.lowercased() {
        case "nan": return nan
        case "inf", "+inf", "infinity": return positiveInfinity
        case "-inf", "-infinity": return negativeInfinity
        default: break
        }
        guard let number = Spelled(Array(text.utf8)) else { return nil }
        if number.digits.isEmpty { return zero }
        // 0.d₁d₂… × 10^(exponent + count): the exponent of the first digit, biased to sort unsigned.
        let biased = UInt32(truncatingIfNeeded: Int64(number.exponent) + Int64(number.digits.count) + (1 << 31))
        var key: [UInt8] = [number.negative ? 0x03 : 0x05]
        for shift in stride(from: 24, through: 0, by: -8) {
            let byte = UInt8(truncatingIfNeeded: biased >> UInt32(shift))
            key.append(number.negative ? ~byte : byte)
        }
        if number.negative {
            key += number.digits.map { ~$0 }
            key.append(0xFF)
        } else {
            key += number.digits
        }
        return key
    }

    /// A number's sign, significant ASCII digits (no leading or trailing zeros) and the exponent
    /// of the last of them.
    private struct Spelled {
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0

        init?(_ bytes: [UInt8]) {
            var index = 0
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                negative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var sawDigit = false
            var afterPoint = false
            var shift = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    sawDigit = true
                    if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
                    if afterPoint { shift -= 1 }
                } else if byte == UInt8(ascii: "."), !afterPoint {
                    afterPoint = true
                } else {
                    break
                }
                index += 1
            }
            guard sawDigit else { return nil }
            var written = 0
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                var exponentNegative = false
                if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                    exponentNegative = bytes[index] == UInt8(ascii: "-")
                    index += 1
                }
                let start = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") {
                    guard written < 100_000_000 else { return nil }
                    written = written * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                }
                guard index > start else { return nil }
                if exponentNegative { written = -written }
            }
            guard index == bytes.count else { return nil }
            exponent = written + shift
            while digits.last == UInt8(ascii: "0") {
                digits.removeLast()
                exponent += 1
            }
            if digits.isEmpty { negative = false }
        }
    }
}
