/// One statement compiled from a request, with its parameters.
struct CompiledQuery {
    let sql: String
    let parameters: [PGValue]
    /// Whether nothing can match (a filter that never holds, a limit of 0): the statement need not run.
    let matchesNothing: Bool
}
