import Persist

/// Turns PostgreSQL failures into `DataStoreError`s: a sentence for people that names the
/// server, the database or user concerned and says what to do, with the server's own code and
/// message kept.
///
/// Every error has:
/// - `engineCode`: the SQLSTATE as an integer (``PostgresSQLState/engineCode``, PostgreSQL's own
///   `MAKE_SQLSTATE` encoding); decode it with ``PostgresSQLState/init(engineCode:)``;
/// - `engineMessage`: the SQLSTATE, a colon and the server's primary message,
///   `"23505: duplicate key value violates unique constraint \"t_pkey\""`;
/// - `path`: the server's ``PostgresURL/location``, `postgresql://user@host:port/db`, never the password.
///
/// Conditions libpq detects itself carry `08001` (no connection could be made) or `08006` (an
/// open connection was lost).
///
/// | SQLSTATE | meaning | code | why this code |
/// |---|---|---|---|
/// | `08001` (client), `08004` | could not connect: refused, unreachable, timed out | `.io` | the server is unavailable, as a missing disk would be; the message names host and port and says how to start a server |
/// | `57P03` | the server is starting up or shutting down | `.io` | the message names host and port and says to run again once the server accepts connections |
/// | `08000`, `08003`, `08006`, other `08xxx`, `57P01`, `57P02` | connection lost: server shut down, restarted, backend terminated | `.io` | the same; the message says "connection lost" and to reconnect |
/// | `28P01`, `28000` | authentication failed | `.invalidArgument` | the URL's user or password is wrong: an argument the caller gave; no shared code means "denied" better |
/// | `3D000` | the database does not exist | `.notFound` | names the database |
/// | `3F000`, `42P01`, `42703`, `42704`, `42883` | schema, table, column, object or function does not exist | `.notFound` | |
/// | `57014` | statement timeout or cancel request | `.io` | the operation did not complete in time; like an I/O failure it is transient and can be retried; the message says "statement timeout" |
/// | `55P03`, `40P01` | lock not available (`lock_timeout`, `NOWAIT`), deadlock | `.locked` | another transaction holds what this one needs |
/// | `40001` | serialization failure | `.conflict` | a concurrent transaction changed the same data; retry |
/// | `23505` | unique violation | `.alreadyExists` | a row with that key is stored, as SQLite's primary-key constraint maps |
/// | `23503` | foreign key violation | `.referenceViolation` | a reference to a missing row, or a deleted row still referred to; the writer names both items where it can |
/// | other `23xxx` | not-null, check, exclusion constraint | `.invalidArgument` | as SQLite's other constraints |
/// | `P0xxx`, `2Fxxx`, `38xxx`, `39xxx`, `27000`, `44000`, `21000` | a trigger or function raised an exception (`RAISE EXCEPTION`, `ASSERT`) or failed, a `WITH CHECK OPTION` refused the row | `.invalidArgument` | the table's own rules refused the change, as its constraints do; the server's message is kept |
/// | `55006` | object in use by another session | `.locked` | another session holds what this one needs |
/// | other `55xxx` | object not in prerequisite state (`ON CONFLICT` on a deferrable constraint, …) | `.invalidArgument` | the server refuses the statement as it is: retrying cannot succeed |
/// | `22xxx` | data exception: a value out of range, invalid text, a NUL in text | `.typeMismatch` | the value does not fit its column's type |
/// | `25006`, `42501` | read-only transaction, permission denied | `.readOnly` | as SQLite's read-only and permission errors |
/// | `25P02` | statement in an already failed transaction | `.misuse` | the caller must roll back first |
/// | `0A000` | feature not supported | `.unsupported` | |
/// | `XX001`, `XX002` | data or index corrupted | `.corrupt` | |
/// | `53xxx`, `58xxx`, other `XXxxx` | disk full, out of memory, too many connections, system error | `.io` | |
/// | other `42xxx`, `54xxx` | syntax error, bad name, program limit exceeded | `.invalidArgument` | |
/// | anything else | | `.io` | |
enum PostgresErrors {
    /// The error for `failure` on the server of `url`, while doing `operation` ("inserting rows").
    static func error(_ failure: ServerFailure, url: PostgresURL, operation: String) -> DataStoreError {
        let (code, sentence) = describe(failure, url: url, operation: operation)
        return DataStoreError(code, sentence, path: url.location, engineCode: failure.sqlState.engineCode,
                              engineMessage: "\(failure.sqlState.code): \(failure.message)")
    }

    /// An error Persist itself finds about the server (an unsupported version or setting).
    static func unsupported(_ message: String, url: PostgresURL) -> DataStoreError {
        DataStoreError(.unsupported, message, path: url.location)
    }

    /// The error for a connection that was closed and then used.
    static func closed(url: PostgresURL) -> DataStoreError {
        DataStoreError(.misuse, "A closed connection to the PostgreSQL server at \(url.location) was used.",
                       path: url.location)
    }

    private static func describe(_ failure: ServerFailure, url: PostgresURL, operation: String)
        -> (DataStoreError.Code, String) {
        let server = "PostgreSQL at \(url.location)"
        let said = said(failure)
        let failed = "\(operation) failed on \(server): \(said)."
        let state = failure.sqlState.code
        switch state {
        case "57P03":
            return (.io, "Could not connect to \(server): \(said). The server is starting up or shutting down; "
                + "run again once it accepts connections.")
        case "08001", "08004":
            return (.io, "Could not connect to \(server): \(said). "
                + "Is a server running on \(url.serverDescription) and accepting connections? Start one with "
                + "the system's service manager (`systemctl start postgresql`) or `pg_ctl start -D DATADIR`.")
        case "57P01", "57P02":
            return (.io, lost(server, operation, said))
        case _ where failure.sqlState.errorClass == "08":
            return (.io, lost(server, operation, said))
        case "28P01", "28000":
            let user = url.user.map { "\"\($0)\"" } ?? "(the operating system's user name)"
            return (.invalidArgument, "Authentication failed for user \(user) on \(server): \(said). "
                + "Check the user name and password in the URL, and the server's pg_hba.conf.")
        case "3D000":
            return (.notFound, "The database \"\(url.database)\" does not exist on \(server): \(said). "
                + "Create it (`createdb`, or CREATE DATABASE) or fix the database name in the URL.")
        case "3F000", "42P01", "42703", "42704", "42883":
            return (.notFound, "\(failed) Check the name and the schema (search_path), or create it first.")
        case "57014":
            return (.io, "\(operation) was canceled by \(server): \(said). It ran past the statement timeout "
                + "(statement_timeout) or a cancel request stopped it, and its changes were rolled back; "
                + "retry, or raise the statement timeout.")
        case "55P03":
            return (.locked, "\(failed) Another transaction holds the lock; retry later, or raise lock_timeout.")
        case "40P01":
            return (.locked, "\(failed) It deadlocked with another transaction and was rolled back; retry it.")
        case "40001":
            return (.conflict, "\(failed) A concurrent transaction changed the same data; retry the transaction.")
        case "23505":
            return (.alreadyExists, "\(failed) A row with this key is already stored.")
        case "23503":
            return (.referenceViolation, "\(failed) A foreign key refused it: a row would refer to a row that is not "
                + "stored, or a deleted row is still referred to.")
        case "25006", "42501":
            return (.readOnly, "\(failed) The transaction or the user may not write here.")
        case "25P02":
            return (.misuse, "\(failed) An earlier statement failed, so the transaction must be rolled back first.")
        case "0A000":
            return (.unsupported, "\(failed) The server does not support this.")
        case "55006":
            return (.locked, "\(failed) Another session is using the object; retry when it is done.")
        case "XX001", "XX002":
            return (.corrupt, "\(failed) The server found damaged data; restore it from a backup or repair it.")
        default:
            return classify(failure.sqlState.errorClass, failed)
        }
    }

    /// The server's message, and its detail in parentheses: `duplicate key value violates unique
    /// constraint "t_pkey" (Key (id)=(1) already exists)`.
    static func said(_ failure: ServerFailure) -> String {
        let detail = failure.detail.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
        return failure.message + (detail.map { " (\($0))" } ?? "")
    }

    private static func classify(_ errorClass: String, _ failed: String) -> (DataStoreError.Code, String) {
        switch errorClass {
        case "22": (.typeMismatch, "\(failed) The value does not fit its column's type.")
        case "23": (.invalidArgument, "\(failed) A constraint of the table rejected the change.")
        case "42", "54": (.invalidArgument, "\(failed) The server refused the statement.")
        case "P0", "2F", "38", "39", "27", "44", "21":
            (.invalidArgument, "\(failed) A trigger, function or check of the table refused the change.")
        case "55": (.invalidArgument, "\(failed) The server refused the statement: the object is not in the state it "
            + "needs, so retrying it as it is cannot succeed.")
        default: (.io, "\(failed) The server could not complete it; retry later.")
        }
    }

    private static func lost(_ server: String, _ operation: String, _ said: String) -> String {
        // Only the sentence's first letter is lowered: the operation names item types and tables,
        // whose case matters ("Inserting an item of type \"Note\"").
        let during = operation.prefix(1).lowercased() + operation.dropFirst()
        return "The connection to \(server) was lost (connection lost while \(during)): \(said). "
            + "The server was stopped or restarted, or the connection was terminated; reconnect and retry."
    }
}
