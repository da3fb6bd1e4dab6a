import Persist

/// A compiled filter: known never to hold, known always to hold, or an SQL expression.
enum SQLCondition: Equatable {
    /// The filter holds for no row: the query need not run.
    case never
    /// The filter holds for every row: no WHERE clause.
    case always
    /// An expression true exactly for the rows the filter selects (false or NULL otherwise).
    case sql(String)

    /// `terms` joined pairwise into a balanced tree, so that long lists stay shallow.
    static func balanced(_ terms: [String], joinedBy connective: String) -> String? {
        DataStorePredicate.balancedSQL(terms, joinedBy: connective)
    }
}

/// The parameters of a statement being compiled: each value added gets the next `$n`.
struct SQLParameters {
    private(set) var values: [PGValue] = []

    /// Adds a parameter and returns its placeholder, `$n`.
    mutating func add(_ value: PGValue) -> String {
        values.append(value)
        return "$\(values.count)"
    }

    /// Forgets the parameters added after the first `count`.
    mutating func truncate(to count: Int) {
        values.removeSubrange(count...)
    }

    var count: Int { values.count }
}

/// One statement compiled from a request, with its parameters.
struct CompiledQuery {
    let sql: String
    let parameters: [PGValue]
    /// Whether nothing can match (a filter that never holds, a limit of 0): the statement need not run.
    let matchesNothing: Bool
}
