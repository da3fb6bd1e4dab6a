/// A filter compiled for an SQL engine: known never to hold, known always to hold, or an SQL
/// expression to evaluate. Shared by the SQL wrappers' predicate compilers.
///
/// ```swift
/// let condition: SQLCondition = .sql("\"rating\" >= ?1")
/// ```
package enum SQLCondition: Equatable, Sendable {
    /// The filter holds for no row: the query need not run.
    case never
    /// The filter holds for every row: no WHERE clause.
    case always
    /// An expression true exactly for the rows the filter selects (false or NULL otherwise).
    case sql(String)
}
