import Foundation

/// The system errors that mean a write found no room: a full disk (`ENOSPC`), a used-up disk quota
/// (`EDQUOT`), or a file grown to the process's file size limit (`EFBIG`, `ulimit -f`). The wrappers
/// give them the same advice, and tools tell them from files that cannot be created at all.
///
/// ```swift
/// if NoRoom.isNoRoom(errno) { … }
/// if NoRoom.reported(by: error) { print("check free disk space") }
/// ```
package enum NoRoom {
    /// The system errors that mean there was no room to write.
    package static let systemErrors: [Int32] = [ENOSPC, EDQUOT, EFBIG]

    /// Whether `systemError` (an `errno` value) means there was no room to write.
    package static func isNoRoom(_ systemError: Int32) -> Bool {
        systemErrors.contains(systemError)
    }

    /// Advice for a write that found no room, as a sentence without its final period.
    package static let advice = "There was no room to write: the disk is full, a disk quota is used up, or the file "
        + "reached the process's file size limit (ulimit -f); free some space, or raise the limit"

    /// Whether a store's error says that a write found no room: its engine message holds the
    /// system's text for one of ``systemErrors`` (the wrappers add it to the engine's own text).
    package static func reported(by error: DataStoreError) -> Bool {
        guard let engineMessage = error.engineMessage else { return false }
        return systemErrors.contains { engineMessage.contains(String(cString: strerror($0))) }
    }
}
