/// A compiled filter: known never to hold, known always to hold, or an SQL expression to evaluate.
enum SQLCondition: Equatable {
    /// The filter holds for no row: the query need not run.
    case never
    /// The filter holds for every row: no WHERE clause.
    case always
    /// An expression true exactly for the rows the filter selects.
    case sql(String)
}
