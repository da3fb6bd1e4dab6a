import Foundation
import Persist
import PersistSQLite

/// What identifies the state of an SQLite source read as an unchanging file: the database's
/// identity, size and modification time, and whether a write-ahead log exists. If another program
/// writes the database while it is copied, one of them changes, and the copy is refused.
struct SourceFingerprint: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: timespec
    let hasLog: Bool

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = status.st_mtim
        hasLog = FileSystem.exists(path + SQLiteDataStore.logSuffix)
    }

    static func == (lhs: SourceFingerprint, rhs: SourceFingerprint) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size && lhs.hasLog == rhs.hasLog
            && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
    }

    /// Throws `locked` (exit 75) when the file at `path` no longer matches.
    func check(_ path: String) throws {
        guard SourceFingerprint(path: path) == self else {
            throw DataStoreError(.locked, "another program wrote to the source \(path) while it was being copied, so the "
                                    + "copy may mix two states; nothing was written", path: path)
        }
    }
}
