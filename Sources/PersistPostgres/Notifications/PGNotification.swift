/// A notification from `NOTIFY` or `pg_notify`, received on a channel the connection listens to.
package struct PGNotification: Sendable, Equatable {
    /// The channel's name.
    package var channel: String
    /// The payload (empty when none was given).
    package var payload: String
    /// The process ID of the server session that sent it.
    package var processID: Int32

    package init(channel: String, payload: String, processID: Int32) {
        self.channel = channel
        self.payload = payload
        self.processID = processID
    }
}
