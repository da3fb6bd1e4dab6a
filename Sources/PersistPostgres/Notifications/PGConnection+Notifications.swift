internal import CLibPQ
import Foundation
import Persist

/// `LISTEN` / `NOTIFY`: what live queries use to learn of commits made by other connections.
///
/// ```swift
/// try connection.listen("persist_changes")
/// let notifications = try connection.waitForNotifications(timeout: .seconds(5))
/// ```
extension PGConnection {
    /// Starts listening on `channel`; the name is quoted, so any name is one channel.
    package func listen(_ channel: String) throws {
        try executeScript("LISTEN \(PGIdentifier.quote(channel))", operation: "Listening for notifications")
    }

    /// Stops listening on `channel`.
    package func unlisten(_ channel: String) throws {
        try executeScript("UNLISTEN \(PGIdentifier.quote(channel))", operation: "Ending a notification listener")
    }

    /// Sends `payload` to the listeners of `channel` (delivered when the transaction commits).
    package func notify(_ channel: String, payload: String = "") throws {
        try execute("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)], operation: "Sending a notification")
    }

    /// The session's socket, for waiting on with `poll` or an event loop; `nil` when closed or broken.
    package var socketDescriptor: Int32? {
        guard let handle = try? connection else { return nil }
        let socket = PQsocket(handle)
        return socket >= 0 ? socket : nil
    }

    /// Reads what has arrived on the socket without blocking, and returns the notifications
    /// received so far (`PQconsumeInput`, then `PQnotifies`).
    ///
    /// - Throws: `.io` "connection lost" when the server has gone away.
    package func pollNotifications() throws -> [PGNotification] {
        let handle = try connection
        guard PQconsumeInput(handle) == 1 else { throw connectionFailure("Reading notifications") }
        var received: [PGNotification] = []
        while let notification = PQnotifies(handle) {
            let item = notification.pointee
            received.append(PGNotification(channel: item.relname.map { String(cString: $0) } ?? "",
                                           payload: item.extra.map { String(cString: $0) } ?? "",
                                           processID: item.be_pid))
            PQfreemem(notification)
        }
        return received
    }

    /// Returns the notifications received, waiting up to `timeout` for the first one; an empty
    /// array when none came in time.
    package func waitForNotifications(timeout: Duration) throws -> [PGNotification] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let received = try pollNotifications()
            if !received.isEmpty { return received }
            guard let socket = socketDescriptor else { throw connectionFailure("Waiting for notifications") }
            guard try SocketWaiter.wait(socket, events: Int16(POLLIN), until: deadline) else { return [] }
        }
    }
}
