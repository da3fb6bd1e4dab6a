import Foundation
import Persist

/// Waits for a socket with `poll(2)`, retrying when a signal interrupts the wait.
enum SocketWaiter {
    /// Whether `socket` became ready for `events` (`POLLIN`, `POLLOUT`) before `deadline`.
    /// An error or hang-up on the socket counts as ready: the next libpq call reports it.
    static func wait(_ socket: Int32, events: Int16, until deadline: ContinuousClock.Instant) throws -> Bool {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero { return false }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            let result = poll(&descriptor, 1, milliseconds)
            if result > 0 { return true }
            if result == 0 { continue }  // the loop ends once the deadline has passed
            if errno != EINTR {
                throw DataStoreError(.io, "Waiting for the PostgreSQL server's socket failed: "
                    + String(cString: strerror(errno)) + ".")
            }
        }
    }
}
