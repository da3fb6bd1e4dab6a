/// What the server (or libpq, for what it detects itself) said about a failure: the SQLSTATE and
/// the message fields ``PostgresErrors`` builds a `DataStoreError` from.
struct ServerFailure: Sendable, Equatable {
    var sqlState: PostgresSQLState
    /// The primary message: one line, without severity or SQLSTATE.
    var message: String
    var detail: String?
    var hint: String?
    /// The constraint a constraint violation names, and the schema and table it belongs to.
    var constraint: String?
    var schema: String?
    var table: String?

    init(sqlState: PostgresSQLState, message: String, detail: String? = nil, hint: String? = nil,
         constraint: String? = nil, schema: String? = nil, table: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.hint = hint
        self.constraint = constraint
        self.schema = schema
        self.table = table
    }

    /// Whether the server ended the session with it (an administrator's termination, a shutdown
    /// or a crash: `57P01`, `57P02`), or the connection was lost (class `08`).
    var endsSession: Bool {
        sqlState.errorClass == "08" || ["57P01", "57P02"].contains(sqlState.code)
    }

    /// The failure in the text of a failed connection attempt, made with verbose error messages
    /// (`PQERRORS_VERBOSE`), where a server error reads
    /// `connection to server at "…", port 5432 failed: FATAL:  28P01: password authentication failed …`.
    ///
    /// Without such an error (the server was never reached) it is libpq's own text, with the
    /// SQLSTATE `fallback` (`08001`).
    static func parsingConnectionMessage(_ text: String, fallback: PostgresSQLState) -> ServerFailure {
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("\t") && !$0.hasPrefix("LOCATION:") }
        for line in lines {
            // The severity (possibly translated), two spaces, the SQLSTATE, a colon, the message.
            guard let marker = line.range(of: ":  ") else { continue }
            let afterSeverity = line[marker.upperBound...]
            let code = afterSeverity.prefix(5)
            guard let state = PostgresSQLState(String(code)), afterSeverity.dropFirst(5).hasPrefix(": ") else { continue }
            return ServerFailure(sqlState: state, message: String(afterSeverity.dropFirst(7)))
        }
        let message = lines.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }.joined(separator: "; ")
        return ServerFailure(sqlState: fallback, message: message.isEmpty ? "no message from libpq" : message)
    }

    /// The client-side failure for libpq's own message (a lost connection, a refused call).
    static func client(_ text: String, _ sqlState: PostgresSQLState) -> ServerFailure {
        parsingConnectionMessage(text, fallback: sqlState)
    }
}

extension Substring {
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
