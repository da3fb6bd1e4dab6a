import Foundation
import Persist

extension SQLiteEngine {
    /// Switches the file to WAL mode and returns the journal mode it is in afterwards.
    ///
    /// `PRAGMA journal_mode = WAL` needs the file to itself, and SQLite answers `SQLITE_BUSY` at
    /// once rather than calling the busy handler, so several processes opening one new file
    /// together would all but one fail with `locked`. A file already in WAL mode (which a
    /// connection knows once it has read the file, as opening does before this) needs nothing;
    /// otherwise a busy switch is tried again, pausing 5 ms and then up to 100 ms between tries,
    /// until the busy timeout has passed, by when another process has usually switched the file
    /// itself.
    func switchToWAL(_ connection: SQLiteConnection, busyTimeout: Duration) throws -> String {
        let current = try connection.text("PRAGMA journal_mode", operation: "Reading the journal mode") ?? ""
        if current.lowercased() == "wal" { return current }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: busyTimeout)
        var pause: TimeInterval = 0.005
        while true {
            do {
                return try connection.text("PRAGMA journal_mode = WAL", operation: "Switching to WAL mode") ?? ""
            } catch let error as DataStoreError where error.code == .locked && clock.now < deadline {
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 0.1)
            }
        }
    }
}
