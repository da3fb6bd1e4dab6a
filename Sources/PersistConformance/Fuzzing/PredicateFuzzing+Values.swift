import Foundation
import Persist

extension PredicateFuzzing {
    /// ``Mode/values``: sort order, predicate operators and encoding on three random values.
    static func checkValues(_ bytes: ArraySlice<UInt8>, into findings: inout [String]) {
        var random = RandomData(generator: FuzzInputGenerator(bytes), variety: .anything)
        let values = [random.value(), random.value(), random.value()]
        checkSortOrder(values, into: &findings)
        for value in values where !DataStorePredicate.comparison(attribute: "v", .equal, value).matches(valueItem(value)) {
            findings.append("\(value) == \(value) does not hold")
        }
        for lhs in values {
            for rhs in values {
                checkOperators(lhs, rhs, into: &findings)
            }
        }
        checkEncoding(values, into: &findings)
    }

    /// The sort order `Persist` uses for one ascending key: `DataStoreRequest.compare(_:_:)` on two
    /// items with the same identifier, which leaves only the key to decide.
    static func sortOrder(_ lhs: Value, _ rhs: Value) -> Int {
        valueSort.compare(valueItem(lhs), valueItem(rhs)).signum()
    }

    static let valueSort = DataStoreRequest(itemType: "V", sortDescriptors: [.ascending("v")])

    static func valueItem(_ value: Value) -> Item {
        Item(itemType: "V", id: 0, attributes: ["v": value])
    }

    /// The sort order agrees with the reference, and is a total preorder: antisymmetric and
    /// transitive (ties included) on every triple of the values.
    static func checkSortOrder(_ values: [Value], into findings: inout [String]) {
        for a in values {
            for b in values {
                let order = sortOrder(a, b)
                let reference = ReferenceEvaluator.sortOrder(a, b).rawValue
                if order != reference {
                    findings.append("sort order of \(a) and \(b) is \(order); the reference says \(reference)")
                }
                if order != -sortOrder(b, a) {
                    findings.append("sort order is not antisymmetric: \(a) vs \(b) gives \(order), \(b) vs \(a) gives \(sortOrder(b, a))")
                }
                for c in values where order <= 0 && sortOrder(b, c) <= 0 {
                    let outer = sortOrder(a, c)
                    if outer > 0 || (outer == 0 && (order < 0 || sortOrder(b, c) < 0)) {
                        findings.append("""
                            sort order is not transitive: \(a) vs \(b) gives \(order), \(b) vs \(c) gives \
                            \(sortOrder(b, c)), but \(a) vs \(c) gives \(outer)
                            """)
                    }
                }
            }
        }
    }

    /// Every operator with `lhs` as the attribute and `rhs` as the operand agrees with the
    /// reference; `==` and the ordering operators agree with the sort order and with their mirror
    /// images (`a < b` exactly when `b > a`).
    static func checkOperators(_ lhs: Value, _ rhs: Value, into findings: inout [String]) {
        let item = valueItem(lhs)
        let mirror = valueItem(rhs)
        var predicates: [DataStorePredicate] = [.isNil(attribute: "v"), .isIn(attribute: "v", [rhs]), .isIn(attribute: "v", [rhs, lhs])]
        predicates += DataStorePredicate.TextOperator.allCases.map { .text(attribute: "v", $0, rhs) }
        for op in DataStorePredicate.ComparisonOperator.allCases {
            let predicate = DataStorePredicate.comparison(attribute: "v", op, rhs)
            predicates.append(predicate)
            let holds = predicate.matches(item)
            guard !lhs.isNull, !rhs.isNull, holds else { continue }
            let mirrored: DataStorePredicate.ComparisonOperator = switch op {
            case .less: .greater
            case .lessOrEqual: .greaterOrEqual
            case .greater: .less
            case .greaterOrEqual: .lessOrEqual
            case .equal, .notEqual: op
            }
            if !DataStorePredicate.comparison(attribute: "v", mirrored, lhs).matches(mirror) {
                findings.append("\(lhs) \(op.rawValue) \(rhs) holds but \(rhs) \(mirrored.rawValue) \(lhs) does not")
            }
            let order = sortOrder(lhs, rhs)
            let consistent = switch op {
            case .equal: order == 0
            case .less: order < 0
            case .lessOrEqual: order <= 0
            case .greater: order > 0
            case .greaterOrEqual: order >= 0
            case .notEqual: true
            }
            if !consistent {
                findings.append("\(lhs) \(op.rawValue) \(rhs) holds but their sort order is \(order)")
            }
        }
        for predicate in predicates where predicate.matches(item) != ReferenceEvaluator.holds(predicate, item) {
            findings.append("DataStorePredicate.matches gives \(predicate.matches(item)) for \(predicate) on v = \(lhs); the reference disagrees")
        }
    }

    /// Each value round-trips through `BinaryValueCoding`, and equal values (`Value`'s `==`) have
    /// equal encodings and equal hashes.
    static func checkEncoding(_ values: [Value], into findings: inout [String]) {
        for value in values {
            let encoded = BinaryValueCoding.encode(value)
            do {
                let decoded = try BinaryValueCoding.decode(encoded)
                if decoded != value {
                    findings.append("\(value) encodes to \(encoded), which decodes to \(decoded)")
                }
            } catch {
                findings.append("\(value) encodes to \(encoded), which does not decode: \(error)")
            }
            for other in values where other == value {
                if BinaryValueCoding.encode(other) != encoded {
                    findings.append("equal values \(value) and \(other) encode differently: \(encoded) and \(BinaryValueCoding.encode(other))")
                }
                if other.hashValue != value.hashValue {
                    findings.append("equal values \(value) and \(other) hash differently")
                }
            }
        }
    }
}
