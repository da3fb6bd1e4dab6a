import Foundation

/// The comparison rules of predicates and sorting, defined once for every store.
///
/// See <doc:PredicateSemantics> for the rules in prose. In short:
/// - Values fall into comparison classes: null, bool, number (int and double together), date,
///   string, bytes, array, object. Values of different classes are never equal or ordered by a
///   predicate; for sorting the classes are ranked in that order.
/// - Numbers compare by exact mathematical value (`1 == 1.0`, `-0.0 == 0`); NaN equals NaN and
///   is below every other number. A decimal compares with a double as the decimal the double's
///   shortest text spells (the double 0.1 equals the decimal 0.1).
/// - Strings and bytes compare lexicographically by (UTF-8) bytes.
/// - Arrays and objects are equal only when identical (``Value``'s `==`) and are never ordered.
package enum ValueSemantics {
    enum ComparisonClass: Int {
        case null = 0, bool, number, date, string, bytes, array, object
    }

    static func comparisonClass(_ value: Value) -> ComparisonClass {
        switch value {
        case .null: .null
        case .bool: .bool
        case .int, .double, .decimal: .number
        case .date: .date
        case .string: .string
        case .bytes: .bytes
        case .array: .array
        case .object: .object
        }
    }

    /// Three-way comparison of two non-null values of the same orderable class;
    /// `nil` when the classes differ, a value is null, or the class is not ordered.
    static func order(_ a: Value, _ b: Value) -> Int? {
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
        case (.int(let x), .int(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.double(let x), .double(let y)): return compare(x, y)
        case (.int(let x), .double(let y)): return compare(x, y)
        case (.double(let x), .int(let y)): return -compare(y, x)
        case (.decimal(let x), .decimal(let y)): return compare(x, y)
        case (.decimal(let x), .int(let y)): return compare(x, Decimal(y))
        case (.int(let x), .decimal(let y)): return compare(Decimal(x), y)
        case (.decimal(let x), .double(let y)): return compare(x, y)
        case (.double(let x), .decimal(let y)): return -compare(y, x)
        case (.date(let x), .date(let y)):
            return compare(x.timeIntervalSinceReferenceDate, y.timeIntervalSinceReferenceDate)
        case (.string(let x), .string(let y)): return ByteOrder.compare(x, y).signum()
        case (.bytes(let x), .bytes(let y)): return ByteOrder.compare(x, y).signum()
        default: return nil
        }
    }

    /// Predicate equality of two values, where `rhs` is not null.
    static func equals(_ lhs: Value, _ rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.array, .array), (.object, .object): return lhs == rhs
        default: return order(lhs, rhs) == 0
        }
    }

    /// The total order used for sorting: null (and missing) first, then by class rank, then within
    /// the class. Arrays tie with arrays and objects with objects.
    static func sortOrder(_ a: Value?, _ b: Value?) -> Int {
        let left = a ?? .null
        let right = b ?? .null
        let leftClass = comparisonClass(left)
        let rightClass = comparisonClass(right)
        if leftClass != rightClass { return leftClass.rawValue < rightClass.rawValue ? -1 : 1 }
        return order(left, right) ?? 0
    }

    /// Doubles: NaN equals NaN and sorts below everything; otherwise IEEE order (`-0.0 == 0.0`).
    package static func compare(_ x: Double, _ y: Double) -> Int {
        if x.isNaN || y.isNaN {
            if x.isNaN && y.isNaN { return 0 }
            return x.isNaN ? -1 : 1
        }
        if x < y { return -1 }
        if x > y { return 1 }
        return 0
    }

    /// Exact comparison of an integer with a double, with no rounding of either.
    package static func compare(_ x: Int64, _ y: Double) -> Int {
        if y.isNaN { return 1 }
        if y >= 9_223_372_036_854_775_808.0 { return -1 }
        if y < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = y.rounded(.towardZero)
        let wholeInt = Int64(whole)
        if x < wholeInt { return -1 }
        if x > wholeInt { return 1 }
        let fraction = y - whole
        if fraction > 0 { return -1 }
        if fraction < 0 { return 1 }
        return 0
    }

    /// Decimals: exact; NaN equals NaN and sorts below everything.
    package static func compare(_ x: Decimal, _ y: Decimal) -> Int {
        if x.isNaN || y.isNaN {
            if x.isNaN && y.isNaN { return 0 }
            return x.isNaN ? -1 : 1
        }
        return x < y ? -1 : (x == y ? 0 : 1)
    }

    /// A decimal against a double: the double as the decimal its shortest text spells; NaN equal
    /// to NaN and below every other number; an infinity, or a double beyond `Decimal`'s range
    /// (`1e300`), beyond every decimal; a nonzero double nearer zero than any decimal (`5e-324`)
    /// between zero and every other decimal.
    package static func compare(_ x: Decimal, _ y: Double) -> Int {
        if x.isNaN || y.isNaN { return x.isNaN && y.isNaN ? 0 : (x.isNaN ? -1 : 1) }
        if let spelled = DecimalText.decimal(nearest: y) { return compare(x, spelled) }
        if y.isInfinite || y.magnitude >= 1 { return y > 0 ? -1 : 1 }
        if !x.isZero { return x > 0 ? 1 : -1 }
        return y > 0 ? -1 : 1
    }

    /// Evaluates a substring operator; false unless both sides are strings or both are bytes.
    static func text(_ op: DataStorePredicate.TextOperator, _ value: Value, _ operand: Value) -> Bool {
        switch (value, operand) {
        case (.string(var haystack), .string(var needle)):
            return haystack.withUTF8 { h in needle.withUTF8 { n in text(op, h, n) } }
        case (.bytes(let haystack), .bytes(let needle)):
            return haystack.withUnsafeBufferPointer { h in needle.withUnsafeBufferPointer { n in text(op, h, n) } }
        default:
            return false
        }
    }

    private static func text(
        _ op: DataStorePredicate.TextOperator,
        _ haystack: UnsafeBufferPointer<UInt8>,
        _ needle: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        switch op {
        case .contains: ByteOrder.contains(haystack, needle)
        case .beginsWith: ByteOrder.hasPrefix(haystack, needle)
        case .endsWith: ByteOrder.hasSuffix(haystack, needle)
        }
    }
}

extension DataStorePredicate {
    /// Whether `item` satisfies the predicate, with the semantics every store shares.
    ///
    /// ```swift
    /// let item = Item(itemType: "Restaurant", attributes: ["rating": 4])
    /// let good: DataStorePredicate = .attribute("rating") >= 3.5
    /// assert(good.matches(item))
    /// ```
    public func matches(_ item: Item) -> Bool {
        matches { item.attributes[$0] }
    }

    /// Whether the attributes given by `lookup` satisfy the predicate.
    ///
    /// Stores that decode attributes lazily pass a closure that decodes only the names it is asked for.
    public func matches(_ lookup: (String) -> Value?) -> Bool {
        switch self {
        case .comparison(let name, let op, let operand):
            return DataStorePredicate.compare(lookup(name), op, operand)
        case .isIn(let name, let operands):
            guard let value = lookup(name), !value.isNull else { return operands.contains(where: \.isNull) }
            return operands.contains { !$0.isNull && ValueSemantics.equals(value, $0) }
        case .isNil(let name):
            return lookup(name)?.isNull ?? true
        case .text(let name, let op, let operand):
            guard let value = lookup(name) else { return false }
            return ValueSemantics.text(op, value, operand)
        case .and(let lhs, let rhs):
            return lhs.matches(lookup) && rhs.matches(lookup)
        case .or(let lhs, let rhs):
            return lhs.matches(lookup) || rhs.matches(lookup)
        case .not(let operand):
            return !operand.matches(lookup)
        }
    }

    private static func compare(_ value: Value?, _ op: ComparisonOperator, _ operand: Value) -> Bool {
        let isNil = value?.isNull ?? true
        switch op {
        case .equal, .notEqual:
            let equal: Bool
            if operand.isNull {
                equal = isNil
            } else if let value, !isNil {
                equal = ValueSemantics.equals(value, operand)
            } else {
                equal = false
            }
            return op == .equal ? equal : !equal
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let value, !isNil, let order = ValueSemantics.order(value, operand) else { return false }
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }
}
