import Persist
import PersistSQL

/// Exact comparisons between a column's stored integers and a literal of another kind, turned
/// into comparisons of the stored integers with integer bounds, so that PostgreSQL compares
/// exactly what the predicate semantics compare (and can use an index).
///
/// For a column whose stored integer `c` reads as a number `f(c)` that never decreases as `c`
/// grows (an integer itself, a timestamp's microseconds, a date's days), `f(c) < L` holds exactly
/// for `c` below the first `c` with `f(c) ≥ L`, and so on.
enum LiteralBounds {
    /// What a comparison becomes.
    enum Outcome: Equatable {
        /// No stored value satisfies it.
        case none
        /// Every stored (non-null) value satisfies it.
        case all
        /// `c op bound`, with `op` one of `<`, `>=`.
        case below(Int64)
        case atLeast(Int64)
        /// `lower <= c AND c < upper`.
        case within(Int64, Int64)
    }

    /// The comparison `f(c) op L`, for `compare(c)` the three-way comparison of `f(c)` with `L`
    /// (never decreasing in `c`), over stored values in `domain`.
    static func outcome(_ op: SQLComparison, domain: ClosedRange<Int64>, compare: (Int64) -> Int) -> Outcome {
        // The first c with f(c) >= L, and the first with f(c) > L (nil when there is none).
        let firstAtLeast = first(in: domain) { compare($0) >= 0 }
        let firstAbove = first(in: domain) { compare($0) > 0 }
        func below(_ bound: Int64?) -> Outcome {
            guard let bound else { return .all }
            return bound == domain.lowerBound ? .none : .below(bound)
        }
        func atLeast(_ bound: Int64?) -> Outcome {
            guard let bound else { return .none }
            return bound == domain.lowerBound ? .all : .atLeast(bound)
        }
        switch op {
        case .less: return below(firstAtLeast)
        case .lessOrEqual: return below(firstAbove)
        case .greater: return atLeast(firstAbove)
        case .greaterOrEqual: return atLeast(firstAtLeast)
        case .equal:
            guard let lower = firstAtLeast else { return .none }
            if let upper = firstAbove {
                return lower == upper ? .none : .within(lower, upper)
            }
            return lower == domain.lowerBound ? .all : .atLeast(lower)
        }
    }

    /// The smallest value in `domain` for which `predicate` (false, then true) holds.
    private static func first(in domain: ClosedRange<Int64>, where predicate: (Int64) -> Bool) -> Int64? {
        guard predicate(domain.upperBound) else { return nil }
        var low = domain.lowerBound
        var high = domain.upperBound
        while low < high {
            let middle = low + Int64((UInt64(bitPattern: high &- low)) / 2)
            if predicate(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Three-way comparison of doubles in the predicate semantics: NaN equals NaN and is below
    /// every other number; -0.0 equals 0.0.
    static func compare(_ x: Double, _ y: Double) -> Int {
        ValueSemantics.compare(x, y)
    }

    /// Exact three-way comparison of an integer with a double.
    static func compare(_ x: Int64, _ y: Double) -> Int {
        ValueSemantics.compare(x, y)
    }

    /// The doubles nearest an integer from below and above: equal when the integer is a double.
    static func neighbors(of value: Int64) -> (below: Double, above: Double) {
        let nearest = Double(value)
        switch compare(value, nearest) {
        case 0: return (nearest, nearest)
        case 1: return (nearest, nearest.nextUp)
        default: return (nearest.nextDown, nearest)
        }
    }
}
