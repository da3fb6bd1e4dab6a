internal import CLibPQ
import Foundation
import Persist

/// Makes the session of a ``PGConnection``: `PQconnectStartParams` with the URL's keyword and
/// value arrays, then `PQconnectPoll` until it is ready, failed, or the timeout has passed.
///
/// libpq's blocking `PQconnectdbParams` would do the same waiting, but only with a timeout in
/// whole seconds, and its errors have no SQLSTATE: polling lets the timeout be any `Duration`,
/// and verbose messages (`PQERRORS_VERBOSE`, set before the server answers) carry the SQLSTATE
/// of a refused login, such as `28P01` or `3D000`.
///
/// It never finishes a session: the ``PGConnection`` holding it does.
enum PGConnector {
    /// Starts connecting; the session is returned even when it already failed, for its owner to finish.
    static func start(_ url: PostgresURL) throws -> OpaquePointer {
        guard PQisthreadsafe() == 1 else {
            throw PostgresErrors.unsupported("The libpq on this system was built without thread safety; "
                + "Persist needs a thread-safe libpq to connect to \(url.location).", url: url)
        }
        let parameters = url.connectionParameters
        let handle = withCStringArray(parameters.map(\.keyword)) { keywords in
            withCStringArray(parameters.map(\.value)) { values in
                // expand_dbname 0: the database name is only a name, never read as conninfo.
                PQconnectStartParams(keywords, values, 0)
            }
        }
        guard let handle else {
            throw DataStoreError(.io, "libpq could not allocate a connection to PostgreSQL at \(url.location); "
                + "the system is out of memory.", path: url.location)
        }
        PQsetErrorVerbosity(handle, PQERRORS_VERBOSE)
        return handle
    }

    /// Polls `handle` until it is connected; throws when it fails or `timeout` passes.
    static func complete(_ handle: OpaquePointer, url: PostgresURL, timeout: Duration) throws {
        let deadline = ContinuousClock.now + timeout
        var status = PQstatus(handle) == CONNECTION_BAD ? PGRES_POLLING_FAILED : PGRES_POLLING_WRITING
        while true {
            switch status {
            case PGRES_POLLING_OK:
                PQsetErrorVerbosity(handle, PQERRORS_DEFAULT)
                return
            case PGRES_POLLING_READING, PGRES_POLLING_WRITING:
                let ready = try wait(for: handle, reading: status == PGRES_POLLING_READING, until: deadline)
                guard ready else {
                    let failure = ServerFailure(sqlState: .unableToConnect,
                                                message: "no connection within \(describe(timeout))")
                    throw PostgresErrors.error(failure, url: url, operation: "Connecting")
                }
                status = PQconnectPoll(handle)
            default:
                throw PostgresErrors.error(failure(of: handle), url: url, operation: "Connecting")
            }
        }
    }

    /// Why connecting failed: a password the server asked for and was not given (libpq says so
    /// without a SQLSTATE), or what the message says.
    private static func failure(of handle: OpaquePointer) -> ServerFailure {
        if PQconnectionNeedsPassword(handle) == 1 {
            return ServerFailure(sqlState: .invalidAuthorization,
                                 message: "the server asks for a password and the URL gives none")
        }
        let text = String(cString: PQerrorMessage(handle))
        return ServerFailure.parsingConnectionMessage(text, fallback: .unableToConnect)
    }

    /// Waits until the session's socket is readable or writable; `false` when the deadline passed first.
    private static func wait(for handle: OpaquePointer, reading: Bool, until deadline: ContinuousClock.Instant)
        throws -> Bool {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return true }  // no socket: PQconnectPoll reports the failure
        let events = Int16(reading ? POLLIN : POLLOUT)
        return try SocketWaiter.wait(socket, events: events, until: deadline)
    }

    private static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        return "\(Double(seconds) + Double(attoseconds) / 1e18) seconds"
    }

    /// Calls `body` with a NULL-terminated array of C strings (which must not contain NUL).
    private static func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
