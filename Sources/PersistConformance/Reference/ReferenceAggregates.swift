import Foundation
import Persist

/// The aggregates of the "Aggregates" article of Persist's documentation, computed independently
/// of `Persist`'s own code: extremes by ``ReferenceEvaluator/sortOrder(_:_:)``, sums by
/// Shewchuk's exactly rounded summation (as Python's `math.fsum`) rather than Persist's fixed-point
/// accumulator, integer sums in `Int128`.
///
/// ```swift
/// let total = ReferenceAggregates.evaluate(.sum, of: "amount", request, over: items)
/// ```
public enum ReferenceAggregates {
    /// The aggregate `function` of `attribute` over the items `request` selects in `items`.
    public static func evaluate(_ function: AggregateFunction, of attribute: String, _ request: DataStoreRequest,
                                over items: [Item]) -> Value? {
        let values = ReferenceEvaluator.evaluate(request, over: items).compactMap { $0[attribute] }
        switch function {
        case .minimum, .maximum:
            var best: Value?
            for value in values {
                switch value {
                case .null, .array, .object: continue
                default: break
                }
                guard let current = best else {
                    best = value
                    continue
                }
                let order = ReferenceEvaluator.sortOrder(value, current)
                if function == .minimum ? order == .orderedAscending : order == .orderedDescending { best = value }
            }
            return best
        case .sum, .average:
            var integers: [Int64] = []
            var doubles: [Double] = []
            var decimals: [Decimal] = []
            for value in values {
                switch value {
                case .int(let int): integers.append(int)
                case .double(let double): doubles.append(double)
                case .decimal(let decimal): decimals.append(decimal)
                default: continue
                }
            }
            let count = integers.count + doubles.count + decimals.count
            // A decimal counts among doubles as the double its digits round to.
            let asDoubles = decimals.map { Double($0.isNaN ? "nan" : "\($0)") ?? .nan }
            let total = sum(integers, doubles + asDoubles)
            if function == .average { return count == 0 ? nil : .double(total / Double(count)) }
            if doubles.isEmpty && !decimals.isEmpty {
                return .decimal(decimals.reduce(Decimal(0), +) + integers.reduce(Decimal(0)) { $0 + Decimal($1) })
            }
            if doubles.isEmpty {
                let exact = integers.reduce(Int128(0)) { $0 + Int128($1) }
                if let fits = Int64(exactly: exact) { return .int(fits) }
            }
            return .double(total)
        }
    }

    /// The exact sum of the integers and doubles, rounded once; `+0.0` for an exact zero.
    static func sum(_ integers: [Int64], _ doubles: [Double]) -> Double {
        if doubles.contains(where: \.isNaN) { return .nan }
        let positiveInfinity = doubles.contains(.infinity)
        let negativeInfinity = doubles.contains(-.infinity)
        if positiveInfinity && negativeInfinity { return .nan }
        if positiveInfinity { return .infinity }
        if negativeInfinity { return -.infinity }
        var terms = doubles
        for int in integers {
            // Both halves are exact doubles.
            terms.append(Double(int >> 32) * 4_294_967_296.0)
            terms.append(Double(int & 0xFFFF_FFFF))
        }
        let result = fsum(terms)
        return result == 0 ? 0 : result
    }

    /// Shewchuk's algorithm with the final correction for halfway cases (CPython's `math.fsum`).
    static func fsum(_ terms: [Double]) -> Double {
        var partials: [Double] = []
        for term in terms {
            var x = term
            var kept = 0
            for index in partials.indices {
                var y = partials[index]
                if abs(x) < abs(y) { swap(&x, &y) }
                let high = x + y
                let low = y - (high - x)
                if low != 0 {
                    partials[kept] = low
                    kept += 1
                }
                x = high
            }
            partials.removeSubrange(kept...)
            partials.append(x)
        }
        var count = partials.count
        guard count > 0 else { return 0 }
        count -= 1
        var high = partials[count]
        var low = 0.0
        while count > 0 {
            let x = high
            count -= 1
            let y = partials[count]
            high = x + y
            low = y - (high - x)
            if low != 0 { break }
        }
        if count > 0 && ((low < 0 && partials[count - 1] < 0) || (low > 0 && partials[count - 1] > 0)) {
            let y = low * 2
            let x = high + y
            if y == x - high { high = x }
        }
        return high
    }
}
