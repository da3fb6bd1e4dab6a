import Foundation
import Persist

/// Helpers the SQL wrappers share for turning predicates into SQL expressions.
extension DataStorePredicate {
    /// The operands of a chain of the same connective (`a && b && c`, or `||`), left to right,
    /// without recursion, so that a long chain built in a loop compiles without deep recursion.
    ///
    /// ```swift
    /// let operands = DataStorePredicate.chain(lhs, rhs, isAnd: true)   // [a, b, c] for (a && b) && c
    /// ```
    package static func chain(_ lhs: DataStorePredicate, _ rhs: DataStorePredicate, isAnd: Bool) -> [DataStorePredicate] {
        var operands: [DataStorePredicate] = []
        var pending = [rhs, lhs]
        while let next = pending.popLast() {
            switch next {
            case .and(let left, let right) where isAnd, .or(let left, let right) where !isAnd:
                pending.append(right)
                pending.append(left)
            default:
                operands.append(next)
            }
        }
        return operands
    }

    /// SQL `terms` joined pairwise by `connective` into a balanced tree, so that long lists stay
    /// within a database's expression depth limit; `nil` for no terms.
    ///
    /// ```swift
    /// DataStorePredicate.balancedSQL(["a", "b", "c"], joinedBy: "OR")   // "((a OR b) OR c)"
    /// ```
    package static func balancedSQL(_ terms: [String], joinedBy connective: String) -> String? {
        guard !terms.isEmpty else { return nil }
        var level = terms
        while level.count > 1 {
            var next: [String] = []
            next.reserveCapacity((level.count + 1) / 2)
            var index = 0
            while index < level.count {
                if index + 1 < level.count {
                    next.append("(\(level[index]) \(connective) \(level[index + 1]))")
                } else {
                    next.append(level[index])
                }
                index += 2
            }
            level = next
        }
        return level[0]
    }
}

extension Value {
    /// The value for an error message: short values in full, long ones by kind and size, and a date
    /// as a reader writes it (UTC, ISO 8601), not as seconds since 2001.
    ///
    /// ```swift
    /// Value.string(String(repeating: "x", count: 100)).briefDescription   // "a string of 100 bytes"
    /// Value.date(Date(timeIntervalSince1970: 0)).briefDescription           // "the date 1970-01-01T00:00:00.000Z"
    /// ```
    package var briefDescription: String {
        switch self {
        case .string(let string) where string.utf8.count > 40: "a string of \(string.utf8.count) bytes"
        case .bytes(let bytes) where bytes.count > 16: "\(bytes.count) bytes"
        case .array(let elements): "an array of \(elements.count) elements"
        case .object(let entries): "an object of \(entries.count) entries"
        case .date(let date): "the date \(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))"
        default: "the \(kind.rawValue) \(self)"
        }
    }
}
