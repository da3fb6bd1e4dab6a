import Foundation
import Persist

/// A deliberately plain, independent implementation of the request semantics of
/// the "Predicate semantics" article, used as the oracle of the differential test.
///
/// It shares no code with `Persist`'s own evaluator: numbers, strings and sort keys are compared
/// by different means, so that a mistake in one is caught by the other. The differential test and
/// the predicate fuzz target check `Persist` against it.
///
/// ```swift
/// let expected = ReferenceEvaluator.evaluate(request, over: items)
/// let matches = ReferenceEvaluator.holds(.attribute("rating") >= 3, item)
/// let order = ReferenceEvaluator.sortOrder(.int(1), .double(.nan))   // .orderedDescending
/// ```
public enum ReferenceEvaluator {
    /// The items of `request.itemType` in `items` that the request selects, in order.
    ///
    /// The request must be valid (no negative offset or limit). With
    /// `DataStoreRequest.Ordering.unspecified` the answer is still in sorted order, one of the
    /// orders the request allows.
    public static func evaluate(_ request: DataStoreRequest, over items: [Item]) -> [Item] {
        let candidates = items.filter { $0.itemType == request.itemType }
        let matching = candidates.filter { item in request.filter.map { holds($0, item) } ?? true }
        let ordered = matching.sorted { lhs, rhs in comesFirst(lhs, rhs, request.sortDescriptors) }
        let skipped = Array(ordered.dropFirst(request.offset))
        if let limit = request.limit { return Array(skipped.prefix(limit)) }
        return skipped
    }

    /// Whether `item` satisfies `predicate`, by the rules of the "Predicate semantics" article of
    /// Persist's documentation.
    public static func holds(_ predicate: DataStorePredicate, _ item: Item) -> Bool {
        switch predicate {
        case .and(let a, let b): return holds(a, item) && holds(b, item)
        case .or(let a, let b): return holds(a, item) || holds(b, item)
        case .not(let a): return !holds(a, item)
        case .isNil(let name): return item[name] == nil
        case .isIn(let name, let list):
            return list.contains { literal in equal(item[name], literal) }
        case .text(let name, let op, let literal):
            guard let value = item[name] else { return false }
            let haystack: [UInt8]
            let needle: [UInt8]
            switch (value, literal) {
            case (.string(let s), .string(let n)): (haystack, needle) = (Array(s.utf8), Array(n.utf8))
            case (.bytes(let s), .bytes(let n)): (haystack, needle) = (s, n)
            default: return false
            }
            switch op {
            case .beginsWith: return haystack.starts(with: needle)
            case .endsWith: return haystack.reversed().starts(with: needle.reversed())
            case .contains:
                if needle.isEmpty { return true }
                if needle.count > haystack.count { return false }
                return (0...(haystack.count - needle.count)).contains { start in
                    Array(haystack[start..<(start + needle.count)]) == needle
                }
            }
        case .comparison(let name, let op, let literal):
            let value = item[name]
            switch op {
            case .equal: return equal(value, literal)
            case .notEqual: return !equal(value, literal)
            case .less: return ordering(value, literal) == .orderedAscending
            case .greater: return ordering(value, literal) == .orderedDescending
            case .lessOrEqual:
                let order = ordering(value, literal)
                return order == .orderedAscending || order == .orderedSame
            case .greaterOrEqual:
                let order = ordering(value, literal)
                return order == .orderedDescending || order == .orderedSame
            }
        }
    }

    static func equal(_ value: Value?, _ literal: Value) -> Bool {
        if case .null = literal { return value == nil || value == .null }
        guard let value, value != .null else { return false }
        switch (value, literal) {
        case (.array, .array), (.object, .object): return value == literal
        default: return ordering(value, literal) == .orderedSame
        }
    }

    /// `nil` when the two are not ordered with respect to each other.
    static func ordering(_ value: Value?, _ literal: Value) -> ComparisonResult? {
        guard let value else { return nil }
        switch (value, literal) {
        case (.bool(let a), .bool(let b)): return a == b ? .orderedSame : (!a ? .orderedAscending : .orderedDescending)
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
            return numeric(value, literal)
        case (.decimal, .int), (.decimal, .double), (.decimal, .decimal), (.int, .decimal), (.double, .decimal):
            return decimalOrdering(value, literal)
        case (.date(let a), .date(let b)):
            return numeric(.double(a.timeIntervalSinceReferenceDate), .double(b.timeIntervalSinceReferenceDate))
        case (.string(let a), .string(let b)): return bytes(Array(a.utf8), Array(b.utf8))
        case (.bytes(let a), .bytes(let b)): return bytes(a, b)
        default: return nil
        }
    }

    /// Two numbers of which one is a decimal: each as a `Decimal` (a double by its shortest text),
    /// NaN equal to NaN and below every other number; a double `Decimal` cannot hold is an
    /// infinity when it is large (beyond every decimal) and a signed nudge off zero when it is tiny.
    static func decimalOrdering(_ a: Value, _ b: Value) -> ComparisonResult? {
        /// A number as (NaN?, infinity sign, decimal, nudge sign), ordered in that order.
        func asDecimal(_ value: Value) -> (nan: Bool, infinity: Int, decimal: Decimal, nudge: Int) {
            switch value {
            case .int(let int): return (false, 0, Decimal(int), 0)
            case .double(let double):
                if double.isNaN { return (true, 0, 0, 0) }
                if let decimal = Decimal(string: "\(double)", locale: nil), "\(decimal)" != "NaN",
                   Double("\(decimal)") == double {
                    return (false, 0, decimal, 0)
                }
                let sign = double > 0 ? 1 : -1
                return double.magnitude >= 1 ? (false, sign, 0, 0) : (false, 0, 0, sign)
            case .decimal(let decimal): return (decimal.isNaN, 0, decimal, 0)
            default: return (false, 0, 0, 0)
            }
        }
        let x = asDecimal(a), y = asDecimal(b)
        if x.nan || y.nan { return x.nan && y.nan ? .orderedSame : (x.nan ? .orderedAscending : .orderedDescending) }
        if x.infinity != y.infinity { return x.infinity < y.infinity ? .orderedAscending : .orderedDescending }
        if x.infinity != 0 { return .orderedSame }
        if x.decimal != y.decimal { return x.decimal < y.decimal ? .orderedAscending : .orderedDescending }
        if x.nudge != y.nudge { return x.nudge < y.nudge ? .orderedAscending : .orderedDescending }
        return .orderedSame
    }

    static func bytes(_ a: [UInt8], _ b: [UInt8]) -> ComparisonResult {
        if a == b { return .orderedSame }
        return a.lexicographicallyPrecedes(b) ? .orderedAscending : .orderedDescending
    }

    /// Numbers by mathematical value; NaN equals NaN and is below every other number.
    static func numeric(_ a: Value, _ b: Value) -> ComparisonResult {
        switch (a, b) {
        case (.int(let x), .int(let y)):
            return x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
        case (.double(let x), .double(let y)):
            if x.isNaN && y.isNaN { return .orderedSame }
            if x.isNaN { return .orderedAscending }
            if y.isNaN { return .orderedDescending }
            return x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
        case (.int(let x), .double(let y)):
            return intVersusDouble(x, y)
        case (.double(let x), .int(let y)):
            switch intVersusDouble(y, x) {
            case .orderedAscending: return .orderedDescending
            case .orderedDescending: return .orderedAscending
            case .orderedSame: return .orderedSame
            }
        default:
            return .orderedSame
        }
    }

    static func intVersusDouble(_ x: Int64, _ y: Double) -> ComparisonResult {
        if y.isNaN { return .orderedDescending }
        if y == y.rounded() {
            // An integral double: compare as integers when it fits, else by sign.
            if y >= -9.223372036854775808e18 && y < 9.223372036854775808e18 {
                let z = Int64(y)
                return x == z ? .orderedSame : (x < z ? .orderedAscending : .orderedDescending)
            }
            return y > 0 ? .orderedAscending : .orderedDescending
        }
        // A fractional double is smaller than 2^52 in magnitude, so the rounding of Double(x)
        // cannot change which side of it x falls.
        return Double(x) < y ? .orderedAscending : .orderedDescending
    }

    /// Sorting: descriptors in turn (missing and null first ascending, class ranks, values), then id.
    static func comesFirst(_ lhs: Item, _ rhs: Item, _ descriptors: [DataStoreSortDescriptor]) -> Bool {
        for descriptor in descriptors {
            switch sortOrder(lhs[descriptor.key], rhs[descriptor.key]) {
            case .orderedSame: continue
            case .orderedAscending: return descriptor.ascending
            case .orderedDescending: return !descriptor.ascending
            }
        }
        return idPrecedes(lhs.id, rhs.id)
    }

    /// Where two values of one sort key fall in ascending order: missing and null first, then by
    /// class rank, then by value within the class; arrays tie with arrays and objects with objects.
    public static func sortOrder(_ lhs: Value?, _ rhs: Value?) -> ComparisonResult {
        let a = sortKey(lhs)
        let b = sortKey(rhs)
        if a.rank != b.rank { return a.rank < b.rank ? .orderedAscending : .orderedDescending }
        guard let left = a.value, let right = b.value else { return .orderedSame }
        return ordering(left, right) ?? .orderedSame
    }

    static func sortKey(_ value: Value?) -> (rank: Int, value: Value?) {
        switch value {
        case nil, .null?: return (0, nil)
        case .bool?: return (1, value)
        case .int?, .double?, .decimal?: return (2, value)
        case .date?: return (3, value)
        case .string?: return (4, value)
        case .bytes?: return (5, value)
        case .array?: return (6, nil)
        case .object?: return (7, nil)
        }
    }

    static func idPrecedes(_ a: ItemID, _ b: ItemID) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y
        case (.string(let x), .string(let y)): return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8))
        case (.bytes(let x), .bytes(let y)): return x.lexicographicallyPrecedes(y)
        case (.composite(let x), .composite(let y)):
            for (left, right) in zip(x, y) where left != right { return idPrecedes(left, right) }
            return x.count < y.count
        case (.int, _): return true
        case (.string, .bytes), (.string, .composite), (.bytes, .composite): return true
        default: return false
        }
    }
}
