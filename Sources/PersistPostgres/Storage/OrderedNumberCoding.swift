import Persist

/// Numbers (integers, doubles, and the seconds of dates) as bytes whose byte order is their
/// numeric order, exactly, across integers and doubles: the magnitude part of the mixed
/// encoding (see ``MixedValueCoding`` and the "PostgreSQL storage format" article).
///
/// A number becomes a class byte, then for a finite non-zero number two bytes of binary exponent
/// and eight bytes of fraction, complemented when negative:
///
/// | class byte | numbers |
/// |---|---|
/// | `00` | NaN (below every other number, as the predicate semantics order it) |
/// | `01` | -infinity |
/// | `02` | negative, then `~(exponent + 32768)` and `~fraction` |
/// | `03` | zero (`0`, `0.0` and `-0.0`) |
/// | `04` | positive, then `exponent + 32768` and `fraction` |
/// | `05` | +infinity |
///
/// where |x| = 2^exponent × (1 + fraction / 2⁶⁴). Equal numbers get equal bytes (`1` and `1.0`),
/// so the kind that tells them apart is kept in a byte after the magnitude.
enum OrderedNumberCoding {
    static let nanClass: UInt8 = 0
    static let negativeInfinityClass: UInt8 = 1
    static let negativeClass: UInt8 = 2
    static let zeroClass: UInt8 = 3
    static let positiveClass: UInt8 = 4
    static let positiveInfinityClass: UInt8 = 5
    /// The length of the magnitude of a finite non-zero number: class, exponent, fraction.
    static let finiteLength = 11

    /// Appends the magnitude of an integer.
    static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value == 0 {
            bytes.append(zeroClass)
            return
        }
        appendFinite(negative: value < 0, significand: value.magnitude, binaryExponent: 0, to: &bytes)
    }

    /// Appends the magnitude of a double.
    static func append(_ value: Double, to bytes: inout [UInt8]) {
        if value.isNaN {
            bytes.append(nanClass)
        } else if value.isInfinite {
            bytes.append(value < 0 ? negativeInfinityClass : positiveInfinityClass)
        } else if value == 0 {
            bytes.append(zeroClass)
        } else {
            // value = significand × 2^(exponent - 52) for normal numbers, ×2^-1074 for subnormal ones.
            let significand = value.isNormal
                ? value.significandBitPattern | (1 << 52) : value.significandBitPattern
            let binaryExponent = value.isNormal ? Int(value.exponent) - 52 : -1074
            appendFinite(negative: value < 0, significand: significand, binaryExponent: binaryExponent, to: &bytes)
        }
    }

    /// |x| = significand × 2^binaryExponent, with significand > 0.
    private static func appendFinite(negative: Bool, significand: UInt64, binaryExponent: Int, to bytes: inout [UInt8]) {
        let leading = significand.leadingZeroBitCount
        let exponent = binaryExponent + 63 - leading
        // The bits after the leading one, left-aligned; a smart shift by 64 gives 0.
        let fraction = significand << UInt64(leading + 1)
        let biased = UInt16(truncatingIfNeeded: exponent + 32768)
        bytes.append(negative ? negativeClass : positiveClass)
        bytes.appendBigEndian(negative ? ~biased : biased)
        bytes.appendBigEndian(negative ? ~fraction : fraction)
    }

    /// The number whose magnitude starts at `bytes[offset...]`, as the kind `isInteger` says, and
    /// the offset after it; `nil` when the bytes are not a magnitude of that kind.
    static func decode(_ bytes: ArraySlice<UInt8>, asInteger isInteger: Bool) -> (value: Value, end: Int)? {
        guard let first = bytes.first else { return nil }
        let start = bytes.startIndex
        switch first {
        case nanClass: return isInteger ? nil : (.double(.nan), start + 1)
        case negativeInfinityClass: return isInteger ? nil : (.double(-.infinity), start + 1)
        case positiveInfinityClass: return isInteger ? nil : (.double(.infinity), start + 1)
        case zeroClass: return (isInteger ? .int(0) : .double(0), start + 1)
        case negativeClass, positiveClass:
            guard bytes.count >= finiteLength else { return nil }
            let negative = first == negativeClass
            var biased = UInt16(bytes[start + 1]) << 8 | UInt16(bytes[start + 2])
            var fraction: UInt64 = 0
            for index in 3..<11 { fraction = fraction << 8 | UInt64(bytes[start + index]) }
            if negative {
                biased = ~biased
                fraction = ~fraction
            }
            let exponent = Int(biased) - 32768
            let value = isInteger
                ? integer(negative: negative, exponent: exponent, fraction: fraction).map(Value.int)
                : double(negative: negative, exponent: exponent, fraction: fraction).map(Value.double)
            return value.map { ($0, start + finiteLength) }
        default:
            return nil
        }
    }

    private static func integer(negative: Bool, exponent: Int, fraction: UInt64) -> Int64? {
        guard (0...63).contains(exponent) else { return nil }
        // Only the top `exponent` fraction bits may be set for an integer.
        if exponent < 64, fraction << UInt64(exponent) != 0 { return nil }
        let magnitude = (UInt64(1) << UInt64(exponent)) | (exponent == 0 ? 0 : fraction >> UInt64(64 - exponent))
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    private static func double(negative: Bool, exponent: Int, fraction: UInt64) -> Double? {
        guard (-1074...1023).contains(exponent) else { return nil }
        let value: Double
        if exponent >= -1022 {
            // 52 fraction bits; the rest must be zero.
            guard fraction & 0xFFF == 0 else { return nil }
            value = Double(sign: .plus, exponentBitPattern: UInt(exponent + 1023), significandBitPattern: fraction >> 12)
        } else {
            // Subnormal: value = m × 2^-1074 with m = 2^(exponent + 1074) + the top fraction bits.
            let shift = exponent + 1074
            guard shift == 0 ? fraction == 0 : fraction << UInt64(shift) == 0 else { return nil }
            let significand = (UInt64(1) << UInt64(shift)) | (shift == 0 ? 0 : fraction >> UInt64(64 - shift))
            value = Double(sign: .plus, exponentBitPattern: 0, significandBitPattern: significand)
        }
        return negative ? -value : value
    }
}
