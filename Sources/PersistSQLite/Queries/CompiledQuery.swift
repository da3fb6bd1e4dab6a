import Persist

/// One SQL statement with its parameters.
struct CompiledQuery: Sendable {
    let sql: String
    let bindings: [SQLBinding]
    /// Whether the request can select nothing (its filter never holds, or its limit is 0), so the
    /// statement need not run.
    let matchesNothing: Bool
}
