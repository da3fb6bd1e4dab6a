/// One statement compiled from a request, with its parameters.
///
/// ```swift
/// guard let query = RequestCompiler.select(request, from: table, dialect: dialect), !query.matchesNothing else { return }
/// ```
package struct CompiledQuery<Parameter> {
    package let sql: String
    package let parameters: [Parameter]
    /// Whether the request can select nothing (its filter never holds, or its limit is 0), so the
    /// statement need not run.
    package let matchesNothing: Bool

    package init(sql: String, parameters: [Parameter], matchesNothing: Bool) {
        self.sql = sql
        self.parameters = parameters
        self.matchesNothing = matchesNothing
    }
}
