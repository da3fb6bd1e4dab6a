internal import CLibPQ
import Logging

/// Receives a connection's notices and warnings from the server and logs them, instead of
/// libpq's default of printing them on standard error.
///
/// The connection keeps its `NoticeLogger` for as long as its `PGconn` lives: libpq holds an
/// unretained pointer to it.
final class NoticeLogger {
    private let logger: Logger
    private let location: String
    /// Whether the server said, between statements, that it is ending the session (`FATAL`, or
    /// an administrator's or crash shutdown, SQLSTATE `57P01` / `57P02`): libpq, idle, takes that
    /// for a notice, and finds the connection broken only when it next reads past it.
    private(set) var sessionEnded = false

    init(logger: Logger, location: String) {
        self.logger = logger
        self.location = location
    }

    /// Makes `self` the notice receiver of `handle`.
    func install(on handle: OpaquePointer) {
        sessionEnded = false
        PQsetNoticeReceiver(handle, { argument, result in
            guard let argument, let result else { return }
            Unmanaged<NoticeLogger>.fromOpaque(argument).takeUnretainedValue().receive(result)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func receive(_ result: OpaquePointer) {
        let severity = PQresultErrorField(result, persist_pq_diag_severity()).map { String(cString: $0) } ?? "NOTICE"
        let message = PQresultErrorField(result, persist_pq_diag_message_primary()).map { String(cString: $0) } ?? ""
        let state = PQresultErrorField(result, persist_pq_diag_sqlstate()).map { String(cString: $0) } ?? ""
        if ["FATAL", "PANIC"].contains(severity) || ["57P01", "57P02"].contains(state) { sessionEnded = true }
        let level: Logger.Level = severity == "WARNING" ? .warning : .debug
        logger.log(level: level, "\(severity): \(message)", metadata: ["server": .string(location)])
    }
}
