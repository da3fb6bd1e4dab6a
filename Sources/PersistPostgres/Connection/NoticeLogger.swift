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

    init(logger: Logger, location: String) {
        self.logger = logger
        self.location = location
    }

    /// Makes `self` the notice receiver of `handle`.
    func install(on handle: OpaquePointer) {
        PQsetNoticeReceiver(handle, { argument, result in
            guard let argument, let result else { return }
            Unmanaged<NoticeLogger>.fromOpaque(argument).takeUnretainedValue().receive(result)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func receive(_ result: OpaquePointer) {
        let severity = PQresultErrorField(result, persist_pq_diag_severity()).map { String(cString: $0) } ?? "NOTICE"
        let message = PQresultErrorField(result, persist_pq_diag_message_primary()).map { String(cString: $0) } ?? ""
        let level: Logger.Level = severity == "WARNING" ? .warning : .debug
        logger.log(level: level, "\(severity): \(message)", metadata: ["server": .string(location)])
    }
}
