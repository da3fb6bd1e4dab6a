/// A filter for a ``DataStoreRequest``: a small expression tree over an item's attributes.
///
/// Build predicates from ``PredicateAttribute`` comparisons and combine them with `&&`, `||`
/// and `!`:
///
/// ```swift
/// var request = DataStoreRequest(itemType: "Restaurant")
/// request.filter = .attribute("rating") >= 3 && !(.attribute("open") == false)
/// request.filter = .attribute("city").isIn(["Leeds", "York"]) || .attribute("note").isNil
/// request.filter = .attribute("name").beginsWith("Pizza")
/// ```
///
/// Every store evaluates a predicate with exactly the same semantics, written down in
/// <doc:PredicateSemantics>: a predicate is always true or false (never unknown), a missing
/// attribute behaves like null, integers and doubles compare as numbers, strings compare by their
/// UTF-8 bytes, and values of different kinds are never equal or ordered.
///
/// The name is prefixed so that it never clashes with Foundation's `Predicate`: a file may import
/// both modules and use either without naming a module.
public indirect enum DataStorePredicate: Sendable, Hashable {
    /// Compares an attribute with a value.
    case comparison(attribute: String, ComparisonOperator, Value)
    /// True when the attribute equals (`==`) any of the values.
    case isIn(attribute: String, [Value])
    /// True when the attribute is missing or null.
    case isNil(attribute: String)
    /// A substring test on string or bytes attributes.
    case text(attribute: String, TextOperator, Value)
    /// True when both predicates are true.
    case and(DataStorePredicate, DataStorePredicate)
    /// True when either predicate is true.
    case or(DataStorePredicate, DataStorePredicate)
    /// True when the predicate is false.
    case not(DataStorePredicate)

    /// The comparison operators.
    public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// The substring operators.
    public enum TextOperator: String, Sendable, Hashable, CaseIterable {
        case contains
        case beginsWith
        case endsWith
    }

    /// Starts a predicate on the attribute `name`: `.attribute("rating") >= 3`.
    public static func attribute(_ name: String) -> PredicateAttribute {
        PredicateAttribute(name: name)
    }

    /// Both predicates: `a && b`.
    public static func && (lhs: DataStorePredicate, rhs: DataStorePredicate) -> DataStorePredicate { .and(lhs, rhs) }
    /// Either predicate: `a || b`.
    public static func || (lhs: DataStorePredicate, rhs: DataStorePredicate) -> DataStorePredicate { .or(lhs, rhs) }
    /// The negation: `!a`.
    public static prefix func ! (operand: DataStorePredicate) -> DataStorePredicate { .not(operand) }

    /// The names of every attribute the predicate reads, without duplicates, in first-use order.
    ///
    /// Stores use this to decode only the attributes a filter needs.
    public var attributeNames: [String] {
        var names: [String] = []
        var seen: Set<String> = []
        collectAttributeNames(into: &names, seen: &seen)
        return names
    }

    private func collectAttributeNames(into names: inout [String], seen: inout Set<String>) {
        switch self {
        case .comparison(let name, _, _), .isIn(let name, _), .isNil(let name), .text(let name, _, _):
            if seen.insert(name).inserted { names.append(name) }
        case .and(let lhs, let rhs), .or(let lhs, let rhs):
            lhs.collectAttributeNames(into: &names, seen: &seen)
            rhs.collectAttributeNames(into: &names, seen: &seen)
        case .not(let operand):
            operand.collectAttributeNames(into: &names, seen: &seen)
        }
    }
}

/// The left-hand side of a predicate: an attribute, named with `.attribute("name")`.
///
/// ```swift
/// let cheap: DataStorePredicate = .attribute("price") < 10
/// let named: DataStorePredicate = .attribute("name").contains("Pizza")
/// let unset: DataStorePredicate = .attribute("note").isNil
/// ```
public struct PredicateAttribute: Sendable {
    /// The attribute's name.
    public let name: String

    /// Names an attribute.
    public static func attribute(_ name: String) -> PredicateAttribute {
        PredicateAttribute(name: name)
    }

    /// The attribute equals the value. `== .null` is the same as ``isNil``.
    public static func == (lhs: PredicateAttribute, rhs: Value) -> DataStorePredicate {
        .comparison(attribute: lhs.name, .equal, rhs)
    }
    /// The attribute does not equal the value: exactly `!(attribute == value)`.
    public static func != (lhs: PredicateAttribute, rhs: Value) -> DataStorePredicate {
        .comparison(attribute: lhs.name, .notEqual, rhs)
    }
    /// The attribute is ordered before the value (both of the same kind).
    public static func < (lhs: PredicateAttribute, rhs: Value) -> DataStorePredicate {
        .comparison(attribute: lhs.name, .less, rhs)
    }
    /// The attribute is ordered before or equal to the value.
    public static func <= (lhs: PredicateAttribute, rhs: Value) -> DataStorePredicate {
        .comparison(attribute: lhs.name, .lessOrEqual, rhs)
    }
    /// The attribute is ordered after the value.
    public static func > (lhs: PredicateAttribute, rhs: Value) -> DataStorePredicate {
        .comparison(attribute: lhs.name, .greater, rhs)
    }
    /// The attribute is ordered after or equal to the value.
    public static func >= (lhs: PredicateAttribute, rhs: Value) -> DataStorePredicate {
        .comparison(attribute: lhs.name, .greaterOrEqual, rhs)
    }

    /// The attribute equals one of the values.
    public func isIn(_ values: [Value]) -> DataStorePredicate { .isIn(attribute: name, values) }
    /// The attribute is missing or null.
    public var isNil: DataStorePredicate { .isNil(attribute: name) }
    /// The attribute is a string (or bytes) containing the given string (or bytes).
    public func contains(_ value: Value) -> DataStorePredicate { .text(attribute: name, .contains, value) }
    /// The attribute is a string (or bytes) starting with the given string (or bytes).
    public func beginsWith(_ value: Value) -> DataStorePredicate { .text(attribute: name, .beginsWith, value) }
    /// The attribute is a string (or bytes) ending with the given string (or bytes).
    public func endsWith(_ value: Value) -> DataStorePredicate { .text(attribute: name, .endsWith, value) }
}

extension DataStorePredicate: CustomStringConvertible {
    /// The predicate in the operator syntax used to build it.
    public var description: String {
        switch self {
        case .comparison(let name, let op, let value): "\(name) \(op.rawValue) \(value)"
        case .isIn(let name, let values): "\(name) in \(Value.array(values))"
        case .isNil(let name): "\(name) is nil"
        case .text(let name, let op, let value): "\(name) \(op.rawValue) \(value)"
        case .and(let lhs, let rhs): "(\(lhs) && \(rhs))"
        case .or(let lhs, let rhs): "(\(lhs) || \(rhs))"
        case .not(let operand): "!(\(operand))"
        }
    }
}
