import Persist

/// What one SQL engine supplies to the shared predicate and request compilers: how a parameter
/// is written, how a window is taken, and the leaves of predicates and sort orders over its
/// columns, which follow the "Predicate semantics" article exactly.
///
/// Every leaf compiles to an expression that is true exactly when the leaf holds, and false or
/// NULL otherwise; a leaf the engine cannot evaluate exactly gives `nil`, and the store then
/// evaluates the whole request itself. Values travel only as parameters.
///
/// ```swift
/// struct MyDialect: SQLDialect {
///     func isNull(_ column: MyColumn) -> SQLCondition? { .sql("\(column.quoted) IS NULL") }
///     …
/// }
/// ```
package protocol SQLDialect {
    associatedtype Table: SQLTable
    associatedtype Parameter

    /// Whether placeholders are numbered (`$1`) rather than positional (`?`).
    var numberedParameters: Bool { get }
    /// The most parameters one statement takes; `nil` when the compiler need not check.
    var maximumParameters: Int? { get }
    /// The verb of a set-based update (`UPDATE`, or SQLite's `UPDATE OR ABORT`).
    var updateVerb: String { get }

    /// `column IS NULL`, as the column's missing values read.
    func isNull(_ column: Table.Column) -> SQLCondition?
    /// `column == literal`, for a literal that is not null.
    func equality(_ column: Table.Column, _ literal: Value, _ parameters: inout SQLParameters<Parameter>) -> SQLCondition?
    /// The terms of `column IN literals`, for literals that are not null, each a term of an `OR`.
    /// The default is one ``equality(_:_:_:)`` per literal.
    func membership(_ column: Table.Column, _ literals: [Value], _ parameters: inout SQLParameters<Parameter>) -> [String]?
    /// `column op literal`, for `<`, `<=`, `>`, `>=` and a literal that is not null.
    func ordering(_ column: Table.Column, _ op: SQLComparison, _ literal: Value,
                  _ parameters: inout SQLParameters<Parameter>) -> SQLCondition?
    /// A substring test; a literal that is no string or bytes never holds.
    func text(_ column: Table.Column, _ op: DataStorePredicate.TextOperator, _ literal: Value,
              _ parameters: inout SQLParameters<Parameter>) -> SQLCondition?
    /// The ORDER BY terms that sort `column` in the semantics' order.
    func orderTerms(_ column: Table.Column, ascending: Bool, _ parameters: inout SQLParameters<Parameter>) -> [String]?
    /// The clause taking a request's window (` LIMIT … OFFSET …`), given that it has one.
    func window(limit: Int?, offset: Int, _ parameters: inout SQLParameters<Parameter>) -> String
}

extension SQLDialect {
    package func membership(_ column: Table.Column, _ literals: [Value],
                            _ parameters: inout SQLParameters<Parameter>) -> [String]? {
        var terms: [String] = []
        for literal in literals {
            guard let term = equality(column, literal, &parameters) else { return nil }
            if case .sql(let sql) = term { terms.append(sql) }
        }
        return terms
    }

    /// A parameter list for this dialect's placeholders.
    package func parameters() -> SQLParameters<Parameter> {
        SQLParameters(numbered: numberedParameters)
    }
}

/// A table as the compilers see it: its name, key and the columns of attributes.
package protocol SQLTable {
    associatedtype Column: SQLColumn

    /// The table's name as it is written in a statement (quoted, and qualified where needed).
    var sqlName: String { get }
    /// The key as it is written in SQL.
    var keySQL: String { get }
    /// The result columns of a row: the key and every attribute column.
    var selectList: String { get }
    /// The ORDER BY term of identifiers, ascending.
    var keyOrder: String { get }
    /// The column of an attribute.
    func column(_ attribute: String) -> Column?
}

/// An attribute column as the compilers see it.
package protocol SQLColumn {
    /// The column's name quoted as an identifier.
    var quoted: String { get }
}
