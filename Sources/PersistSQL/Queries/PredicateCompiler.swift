import Persist

/// Compiles a `DataStorePredicate` over one table into an SQL condition with parameters, the
/// dialect compiling each leaf.
///
/// `AND` and `OR` keep the leaves' property (true exactly when the predicate holds, false or NULL
/// otherwise: NULL behaves as false under them), and `!p` compiles to `(p) IS NOT TRUE`, which is
/// never NULL, so the WHERE clause is two-valued logic although SQL's is three-valued. Leaves that
/// can never (or always) hold fold away as ``SQLCondition/never`` and ``SQLCondition/always``, so a
/// request that matches nothing is known without running it. The result is `nil` when a leaf is
/// one the engine cannot evaluate exactly, or when the filter needs more parameters than one
/// statement takes: the store then evaluates the request itself.
///
/// ```swift
/// var compiler = PredicateCompiler(dialect: dialect, table: table)
/// let condition = compiler.filter(.attribute("rating") >= 3)
/// ```
package struct PredicateCompiler<Dialect: SQLDialect> {
    let dialect: Dialect
    let table: Dialect.Table
    package var parameters: SQLParameters<Dialect.Parameter>

    /// The room a statement keeps for parameters besides its filter's (a limit, an offset).
    static var reservedParameters: Int { 2 }

    package init(dialect: Dialect, table: Dialect.Table, parameters: SQLParameters<Dialect.Parameter>? = nil) {
        self.dialect = dialect
        self.table = table
        self.parameters = parameters ?? dialect.parameters()
    }

    /// The condition for a request's whole filter.
    package mutating func filter(_ predicate: DataStorePredicate) -> SQLCondition? {
        let compiled = condition(predicate)
        guard let maximum = dialect.maximumParameters else { return compiled }
        return parameters.count + Self.reservedParameters <= maximum ? compiled : nil
    }

    /// The condition for `predicate`.
    package mutating func condition(_ predicate: DataStorePredicate) -> SQLCondition? {
        switch predicate {
        case .and(let lhs, let rhs):
            return connective(lhs, rhs, isAnd: true)
        case .or(let lhs, let rhs):
            return connective(lhs, rhs, isAnd: false)
        case .not(let operand):
            switch condition(operand) {
            case nil: return nil
            case .never: return .always
            case .always: return .never
            case .sql(let inner): return .sql("((\(inner)) IS NOT TRUE)")
            }
        case .isNil(let name):
            return isNil(name)
        case .comparison(let name, .notEqual, let literal):
            return condition(.not(.comparison(attribute: name, .equal, literal)))
        case .comparison(let name, .equal, let literal):
            if literal.isNull { return isNil(name) }
            guard let column = table.column(name) else { return .never }
            return dialect.equality(column, literal, &parameters)
        case .comparison(let name, let op, let literal):
            guard !literal.isNull, let column = table.column(name), let comparison = SQLComparison(op) else { return .never }
            return dialect.ordering(column, comparison, literal, &parameters)
        case .isIn(let name, let literals):
            return membership(name, literals)
        case .text(let name, let op, let literal):
            guard let column = table.column(name) else { return .never }
            return dialect.text(column, op, literal, &parameters)
        }
    }

    private func isNil(_ name: String) -> SQLCondition? {
        guard let column = table.column(name) else { return .always }
        return dialect.isNull(column)
    }

    /// A chain of `&&` (or `||`) as one balanced expression, so that long chains built in a loop
    /// stay within the engine's expression depth limit.
    private mutating func connective(_ lhs: DataStorePredicate, _ rhs: DataStorePredicate, isAnd: Bool) -> SQLCondition? {
        let start = parameters.count
        let absorbing: SQLCondition = isAnd ? .never : .always
        var terms: [String] = []
        for operand in DataStorePredicate.chain(lhs, rhs, isAnd: isAnd) {
            switch condition(operand) {
            case nil:
                return nil
            case .sql(let term):
                terms.append(term)
            case absorbing:
                // Constants carry no parameters, so the chain's parameters all go.
                parameters.truncate(to: start)
                return absorbing
            default:
                continue
            }
        }
        return DataStorePredicate.balancedSQL(terms, joinedBy: isAnd ? "AND" : "OR").map(SQLCondition.sql)
            ?? (isAnd ? .always : .never)
    }

    private mutating func membership(_ name: String, _ literals: [Value]) -> SQLCondition? {
        guard let column = table.column(name) else {
            return literals.contains(where: \.isNull) ? .always : .never
        }
        var terms: [String] = []
        if literals.contains(where: \.isNull) {
            switch dialect.isNull(column) {
            case nil: return nil
            case .sql(let term): terms.append(term)
            case .always, .never: break
            }
        }
        let values = literals.filter { !$0.isNull }
        if !values.isEmpty {
            guard let found = dialect.membership(column, values, &parameters) else { return nil }
            terms += found
        }
        return DataStorePredicate.balancedSQL(terms, joinedBy: "OR").map(SQLCondition.sql) ?? .never
    }
}
