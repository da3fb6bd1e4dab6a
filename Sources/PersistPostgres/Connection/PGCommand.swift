/// One statement to send in pipeline mode: its SQL, its parameters, and whether it runs through
/// the session's named prepared statements.
///
/// ```swift
/// let lookup = PGCommand("SELECT * FROM t WHERE id = $1", [.int8(7)], prepared: true, operation: "Reading t")
/// let results = try connection.runPipeline([lookup])
/// ```
package struct PGCommand: Sendable {
    /// The SQL, with `$1`, `$2`, … for the parameters; never a value.
    package var sql: String
    /// The parameters, in binary format.
    package var parameters: [PGValue]
    /// Whether to prepare the statement once per session and run it by name afterwards.
    package var prepared: Bool
    /// What the statement does, for error messages: "Reading items of type "Note"".
    package var operation: String

    package init(_ sql: String, _ parameters: [PGValue] = [], prepared: Bool = false, operation: String) {
        self.sql = sql
        self.parameters = parameters
        self.prepared = prepared
        self.operation = operation
    }
}

/// What a connection in pipeline mode has queued, sent and not yet read.
///
/// libpq returns the results of pipelined statements in the order they were sent; each entry
/// here says what the next result belongs to.
struct PGPipelineState {
    /// What one expected result is.
    enum Expected {
        /// A statement: `wanted` when its result is returned by the current call, otherwise one
        /// nobody waits for (a deferred COMMIT, a DEALLOCATE), whose failure is only logged.
        /// `key` names its prepared statement, if it ran through one.
        case statement(operation: String, key: PGStatementCache.Key?, wanted: Bool)
        /// The preparation of a named statement, forgotten from the cache if it fails.
        case preparation(PGStatementCache.Key, operation: String)
        /// A synchronization point (`PQpipelineSync`).
        case sync
    }

    /// Whether the connection is in pipeline mode.
    var isActive = false
    /// Results still to read, oldest first.
    var expected: [Expected] = []
    /// Statements deferred and not sent yet: they go out with the next pipeline call.
    var unsent: [PGCommand] = []
}
