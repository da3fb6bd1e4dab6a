/// The exact sum of integers and doubles, rounded once at the end (to nearest, ties to even), so
/// that a sum does not depend on the order its terms come in.
///
/// Finite terms are added into a fixed-point integer of 2,176 bits counting units of 2⁻¹⁰⁷⁴ (the
/// smallest double), which holds any sum of up to 2⁶³ doubles or integers without rounding.
/// NaN makes the sum NaN, as do both infinities; one infinity makes it that infinity. A sum
/// beyond the double range is ±infinity; an exact zero is `+0.0`.
///
/// ```swift
/// var sum = ExactSum()
/// sum.add(1e100); sum.add(1.0); sum.add(-1e100)
/// assert(sum.rounded == 1.0)
/// ```
package struct ExactSum: Sendable {
    private static let limbCount = 34
    /// The bit position of 2⁰ (units of 2⁻¹⁰⁷⁴).
    private static let onePosition = 1074

    private var positive = [UInt64](repeating: 0, count: limbCount)
    private var negative = [UInt64](repeating: 0, count: limbCount)
    private var sawNaN = false
    private var sawPositiveInfinity = false
    private var sawNegativeInfinity = false

    package init() {}

    /// Adds an integer exactly.
    package mutating func add(_ int: Int64) {
        guard int != 0 else { return }
        if int < 0 {
            Self.add(int.magnitude, at: Self.onePosition, to: &negative)
        } else {
            Self.add(int.magnitude, at: Self.onePosition, to: &positive)
        }
    }

    /// Adds a double exactly.
    package mutating func add(_ double: Double) {
        if double.isNaN {
            sawNaN = true
            return
        }
        if double.isInfinite {
            if double > 0 { sawPositiveInfinity = true } else { sawNegativeInfinity = true }
            return
        }
        guard double != 0 else { return }
        let exponentBits = Int(double.exponentBitPattern)
        let significand: UInt64
        let position: Int
        if exponentBits == 0 {
            significand = double.significandBitPattern
            position = 0
        } else {
            significand = double.significandBitPattern | (1 << 52)
            position = exponentBits - 1
        }
        if double.sign == .minus {
            Self.add(significand, at: position, to: &negative)
        } else {
            Self.add(significand, at: position, to: &positive)
        }
    }

    /// The sum, rounded once to the nearest double.
    package var rounded: Double {
        if sawNaN || (sawPositiveInfinity && sawNegativeInfinity) { return .nan }
        if sawPositiveInfinity { return .infinity }
        if sawNegativeInfinity { return -.infinity }
        let order = Self.compare(positive, negative)
        if order == 0 { return 0 }
        let magnitude = order > 0 ? Self.subtract(positive, negative) : Self.subtract(negative, positive)
        let value = Self.toDouble(magnitude)
        return order > 0 ? value : -value
    }

    // MARK: Fixed-point arithmetic

    /// Adds `value << position` to `limbs`.
    private static func add(_ value: UInt64, at position: Int, to limbs: inout [UInt64]) {
        let index = position / 64
        let shift = UInt64(position % 64)
        let low = value << shift
        let high = shift == 0 ? 0 : value >> (64 - shift)
        var carry = addLimb(low, at: index, to: &limbs) ? UInt64(1) : 0
        var next = index + 1
        var addend = high
        while (addend != 0 || carry != 0) && next < limbs.count {
            let (partial, overflow1) = limbs[next].addingReportingOverflow(addend)
            let (total, overflow2) = partial.addingReportingOverflow(carry)
            limbs[next] = total
            carry = (overflow1 || overflow2) ? 1 : 0
            addend = 0
            next += 1
        }
    }

    private static func addLimb(_ value: UInt64, at index: Int, to limbs: inout [UInt64]) -> Bool {
        let (total, overflow) = limbs[index].addingReportingOverflow(value)
        limbs[index] = total
        return overflow
    }

    private static func compare(_ a: [UInt64], _ b: [UInt64]) -> Int {
        for index in stride(from: a.count - 1, through: 0, by: -1) where a[index] != b[index] {
            return a[index] < b[index] ? -1 : 1
        }
        return 0
    }

    /// `a - b`, where `a >= b`.
    private static func subtract(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var result = a
        var borrow: UInt64 = 0
        for index in result.indices {
            let (partial, overflow1) = result[index].subtractingReportingOverflow(b[index])
            let (total, overflow2) = partial.subtractingReportingOverflow(borrow)
            result[index] = total
            borrow = (overflow1 || overflow2) ? 1 : 0
        }
        return result
    }

    private static func bitLength(_ limbs: [UInt64]) -> Int {
        for index in stride(from: limbs.count - 1, through: 0, by: -1) where limbs[index] != 0 {
            return index * 64 + (64 - limbs[index].leadingZeroBitCount)
        }
        return 0
    }

    private static func bit(_ limbs: [UInt64], _ position: Int) -> Bool {
        (limbs[position / 64] >> UInt64(position % 64)) & 1 == 1
    }

    /// The bits `[start, start + count)` of `limbs` as an integer (`count` ≤ 64).
    private static func bits(_ limbs: [UInt64], from start: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for offset in stride(from: count - 1, through: 0, by: -1) {
            value = (value << 1) | (bit(limbs, start + offset) ? 1 : 0)
        }
        return value
    }

    /// Whether any bit below `position` is set.
    private static func anyBelow(_ limbs: [UInt64], _ position: Int) -> Bool {
        let whole = position / 64
        for index in 0..<whole where limbs[index] != 0 { return true }
        let rest = position % 64
        guard rest > 0 else { return false }
        return limbs[whole] & ((1 << UInt64(rest)) - 1) != 0
    }

    /// A non-zero magnitude in units of 2⁻¹⁰⁷⁴, rounded to the nearest double (ties to even).
    private static func toDouble(_ limbs: [UInt64]) -> Double {
        let length = bitLength(limbs)
        if length <= 53 {
            return Double(sign: .plus, exponent: -onePosition, significand: Double(bits(limbs, from: 0, count: length)))
        }
        let dropped = length - 53
        var kept = bits(limbs, from: dropped, count: 53)
        let half = bit(limbs, dropped - 1)
        let sticky = anyBelow(limbs, dropped - 1)
        if half && (sticky || kept & 1 == 1) { kept += 1 }
        return Double(sign: .plus, exponent: dropped - onePosition, significand: Double(kept))
    }
}
