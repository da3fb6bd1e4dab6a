import Persist

/// Compiles a `DataStorePredicate` over one table into an SQL condition with bound parameters, keeping the
/// semantics of the "Predicate semantics" article exactly.
///
/// Every leaf compiles to an expression that is true exactly when the leaf holds, and false or NULL
/// otherwise. `AND` and `OR` keep that property (NULL behaves as false under them), and `!p`
/// compiles to `(p) IS NOT TRUE`, which is never NULL: so the WHERE clause is two-valued logic even
/// though SQL is three-valued. Values only ever travel as bindings; the SQL text holds quoted
/// column names and fixed operators only. Leaves that can never (or always) hold are folded away
/// as ``SQLCondition/never`` and ``SQLCondition/always``, so a request that matches nothing is
/// known without running it.
struct PredicateCompiler {
    let table: TableSchema
    /// The parameters, in the order their `?` appear in the SQL.
    private(set) var bindings: [SQLBinding] = []

    init(table: TableSchema) {
        self.table = table
    }

    private static let nan = SQLBinding.text(ValueCodec.nanMarker)

    /// The condition for `predicate`.
    mutating func condition(_ predicate: DataStorePredicate) -> SQLCondition {
        switch predicate {
        case .and(let lhs, let rhs):
            return connective(lhs, rhs, isAnd: true)
        case .or(let lhs, let rhs):
            return connective(lhs, rhs, isAnd: false)
        case .not(let operand):
            switch condition(operand) {
            case .never: return .always
            case .always: return .never
            case .sql(let inner): return .sql("((\(inner)) IS NOT TRUE)")
            }
        case .isNil(let name):
            return isNull(name)
        case .comparison(let name, let op, let literal):
            return comparison(name, op, literal)
        case .isIn(let name, let literals):
            return membership(name, literals)
        case .text(let name, let op, let literal):
            guard let column = column(name) else { return .never }
            return text(column, op, literal)
        }
    }

    private func column(_ name: String) -> ColumnSchema? {
        table.columnIndex[name].map { table.columns[$0] }
    }

    /// A chain of `&&` (or `||`) as one balanced expression, so that long chains built in a loop
    /// stay within SQLite's expression depth limit.
    private mutating func connective(_ lhs: DataStorePredicate, _ rhs: DataStorePredicate, isAnd: Bool) -> SQLCondition {
        let start = bindings.count
        let absorbing: SQLCondition = isAnd ? .never : .always
        let neutral: SQLCondition = isAnd ? .always : .never
        var terms: [String] = []
        for operand in DataStorePredicate.chain(lhs, rhs, isAnd: isAnd) {
            switch condition(operand) {
            case .sql(let term):
                terms.append(term)
            case absorbing:
                // Constants carry no bindings, so the chain's bindings all go.
                bindings.removeSubrange(start...)
                return absorbing
            default:
                continue
            }
        }
        return Self.balanced(terms, joinedBy: isAnd ? "AND" : "OR").map(SQLCondition.sql) ?? neutral
    }

    private func isNull(_ name: String) -> SQLCondition {
        guard let column = column(name) else { return .always }
        return .sql("\(column.quoted) IS NULL")
    }

    private mutating func comparison(_ name: String, _ op: DataStorePredicate.ComparisonOperator, _ literal: Value) -> SQLCondition {
        switch op {
        case .equal:
            if literal.isNull { return isNull(name) }
            guard let column = column(name) else { return .never }
            return equality(column, literal)
        case .notEqual:
            return condition(.not(.comparison(attribute: name, .equal, literal)))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard !literal.isNull, let column = column(name) else { return .never }
            return ordering(column, op.rawValue, literal)
        }
    }

    // MARK: Equality

    private mutating func equality(_ column: ColumnSchema, _ literal: Value) -> SQLCondition {
        switch column.storage {
        case .typed(let kind):
            guard ColumnKind(of: literal) == kind else { return .never }
            bindings.append(ValueCodec.typedBinding(literal))
            return .sql("\(column.quoted) = ?")
        case .mixed:
            let (sql, values) = MixedPredicates.equality(column.quoted, literal)
            bindings.append(contentsOf: values)
            return .sql(sql)
        case .legacy(let affinity):
            guard let binding = ValueCodec.legacyBinding(literal), let storage = ValueCodec.storageClass(binding) else {
                return .never
            }
            bindings.append(binding)
            return .sql("\(reference(column, affinity, storage)) = ?\(collation(column, storage))")
        }
    }

    /// The column as the left operand of a comparison with a value of `storage`: `+column` when the
    /// column's affinity would otherwise convert the value (`+` removes the affinity).
    private func reference(_ column: ColumnSchema, _ affinity: ColumnAffinity, _ storage: StorageClass) -> String {
        affinity.convertsInComparison(storage) ? "+\(column.quoted)" : column.quoted
    }

    private func collation(_ column: ColumnSchema, _ storage: StorageClass) -> String {
        storage == .text && column.needsBinaryCollation ? " COLLATE BINARY" : ""
    }

    private mutating func membership(_ name: String, _ literals: [Value]) -> SQLCondition {
        guard let column = column(name) else {
            return literals.contains(where: \.isNull) ? .always : .never
        }
        var terms: [String] = []
        if literals.contains(where: \.isNull) { terms.append("\(column.quoted) IS NULL") }
        let values = literals.filter { !$0.isNull }
        if case .typed(let kind) = column.storage {
            // One IN list for the values of the column's kind (NaN is the marker text, which IN
            // compares exactly like `=`).
            let matching = values.filter { ColumnKind(of: $0) == kind }
            if !matching.isEmpty {
                bindings.append(contentsOf: matching.map(ValueCodec.typedBinding))
                let parameters = Array(repeating: "?", count: matching.count).joined(separator: ", ")
                terms.append("\(column.quoted) IN (\(parameters))")
            }
        } else {
            for literal in values {
                if case .sql(let term) = equality(column, literal) { terms.append(term) }
            }
        }
        return Self.balanced(terms, joinedBy: "OR").map(SQLCondition.sql) ?? .never
    }

    /// `terms` joined pairwise into a balanced tree, so that long lists stay within SQLite's
    /// expression depth limit.
    static func balanced(_ terms: [String], joinedBy connective: String) -> String? {
        DataStorePredicate.balancedSQL(terms, joinedBy: connective)
    }

    // MARK: Ordering

    private mutating func ordering(_ column: ColumnSchema, _ op: String, _ literal: Value) -> SQLCondition {
        let q = column.quoted
        let literalIsNaN = literal.doubleValue?.isNaN == true || literal.dateValue?.timeIntervalSinceReferenceDate.isNaN == true
        let isLess = op.hasPrefix("<")
        switch column.storage {
        case .typed(let kind):
            guard ColumnKind(of: literal) == kind, kind.isOrdered else { return .never }
            guard kind.isRealLike else {
                bindings.append(ValueCodec.typedBinding(literal))
                return .sql("\(q) \(op) ?")
            }
            // NaN (the marker text) equals NaN and is below every other number.
            if literalIsNaN {
                switch op {
                case "<": return .never
                case "<=":
                    bindings.append(Self.nan)
                    return .sql("\(q) = ?")
                case ">=": return .sql("\(q) IS NOT NULL")
                default:
                    bindings.append(Self.nan)
                    return .sql("\(q) <> ?")
                }
            }
            bindings.append(ValueCodec.typedBinding(literal))
            bindings.append(Self.nan)
            // SQLite orders text after numbers, so the marker must be added below and kept out above.
            return .sql(isLess ? "(\(q) \(op) ? OR \(q) = ?)" : "(\(q) \(op) ? AND \(q) <> ?)")
        case .mixed:
            guard let (sql, values) = MixedPredicates.ordering(q, op, literal) else { return .never }
            bindings.append(contentsOf: values)
            return .sql(sql)
        case .legacy(let affinity):
            if literalIsNaN, literal.kind == .double {
                // Legacy columns hold no NaN: every number is above it, none below or equal.
                return isLess ? .never : .sql("typeof(\(q)) IN ('integer', 'real')")
            }
            guard let binding = ValueCodec.legacyBinding(literal), let storage = ValueCodec.storageClass(binding) else {
                return .never
            }
            bindings.append(binding)
            let reference = reference(column, affinity, storage)
            return .sql("(\(Self.storageGuard(q, storage)) AND \(reference) \(op) ?\(collation(column, storage)))")
        }
    }

    /// True when the column's value is of the comparison class of `storage`.
    private static func storageGuard(_ column: String, _ storage: StorageClass) -> String {
        switch storage {
        case .integer, .real: "typeof(\(column)) IN ('integer', 'real')"
        case .text: "typeof(\(column)) = 'text'"
        case .blob: "typeof(\(column)) = 'blob'"
        }
    }

    // MARK: Substrings

    private mutating func text(_ column: ColumnSchema, _ op: DataStorePredicate.TextOperator, _ literal: Value) -> SQLCondition {
        let needle: [UInt8]
        let storage: StorageClass
        switch literal {
        case .string(let string): (needle, storage) = (Array(string.utf8), .text)
        case .bytes(let bytes): (needle, storage) = (bytes, .blob)
        default: return .never
        }
        let q = column.quoted
        let typeCheck: String
        var haystack = storage == .text ? "CAST(\(q) AS BLOB)" : q
        switch column.storage {
        case .mixed:
            (typeCheck, haystack) = MixedPredicates.textOperands(q, isText: storage == .text)
        case .typed(.string) where storage == .text, .typed(.bytes) where storage == .blob:
            typeCheck = "\(q) IS NOT NULL"
        case .typed:
            return .never
        case .legacy:
            typeCheck = Self.storageGuard(q, storage)
        }
        if needle.isEmpty { return .sql(typeCheck) }
        // Byte-wise: text is compared as the blob of its UTF-8 bytes, so NUL characters count.
        let test: String
        switch op {
        case .contains:
            bindings.append(.blob(needle))
            test = "instr(\(haystack), ?) > 0"
        case .beginsWith:
            bindings.append(.int(Int64(needle.count)))
            bindings.append(.blob(needle))
            test = "substr(\(haystack), 1, ?) = ?"
        case .endsWith:
            bindings.append(.int(-Int64(needle.count)))
            bindings.append(.blob(needle))
            test = "substr(\(haystack), ?) = ?"
        }
        switch column.storage {
        case .legacy, .mixed: return .sql("(\(typeCheck) AND \(test))")
        case .typed: return .sql(test)
        }
    }
}
