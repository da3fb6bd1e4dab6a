import Persist

/// An order comparison of a predicate leaf, or `==` (`!=` compiles as the negation of `==`).
///
/// ```swift
/// SQLComparison(.lessOrEqual)?.symbol   // "<="
/// ```
package enum SQLComparison: Sendable {
    case equal, less, lessOrEqual, greater, greaterOrEqual

    /// The comparison of a predicate's operator; `nil` for `!=`.
    package init?(_ op: DataStorePredicate.ComparisonOperator) {
        switch op {
        case .equal: self = .equal
        case .less: self = .less
        case .lessOrEqual: self = .lessOrEqual
        case .greater: self = .greater
        case .greaterOrEqual: self = .greaterOrEqual
        case .notEqual: return nil
        }
    }

    /// The SQL operator.
    package var symbol: String {
        switch self {
        case .equal: "="
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }

    /// Whether it holds for values below the literal (`<`, `<=`).
    package var isLess: Bool { self == .less || self == .lessOrEqual }
}
