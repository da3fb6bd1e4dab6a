import Foundation
import Persist

/// What a store watching for other processes' commits compares against.
struct SQLiteChangeWatch: Sendable {
    /// The writer connection's `PRAGMA data_version` at the last poll: it changes exactly when
    /// another connection commits.
    var dataVersion: Int64
    /// The device and inode of the database file, to notice it was removed or replaced.
    let device: UInt64
    let inode: UInt64
}

extension SQLiteEngine: ExternalChangeSource {
    var externalChangePollInterval: Duration { options.changePollInterval }

    func beginWatchingExternalChanges() throws {
        let (device, inode) = try fileIdentity()
        let version = try writerConnection().integer("PRAGMA data_version", operation: "Watching for changes")
        changeWatch.withLock { $0 = SQLiteChangeWatch(dataVersion: version, device: device, inode: inode) }
    }

    func pollExternalChanges() throws -> Bool {
        guard let watch = changeWatch.value else { return false }
        let (device, inode) = try fileIdentity()
        guard device == watch.device, inode == watch.inode else {
            throw DataStoreError(.notFound, "the SQLite database at \(location) was replaced by another file while it was "
                                    + "observed; live queries end. Set the store up again to use the new file",
                                 path: location)
        }
        let version = try writerConnection().integer("PRAGMA data_version", operation: "Watching for changes")
        guard version != watch.dataVersion else { return false }
        changeWatch.withLock { $0?.dataVersion = version }
        return true
    }

    func endWatchingExternalChanges() {
        changeWatch.withLock { $0 = nil }
    }

    /// The device and inode of the database file.
    ///
    /// - Throws: `notFound` when the file is gone.
    private func fileIdentity() throws -> (UInt64, UInt64) {
        var status = stat()
        guard stat(location, &status) == 0 else {
            let code = errno
            throw DataStoreError(.notFound, "the SQLite database at \(location) vanished while it was observed "
                                    + "(\(String(cString: strerror(code)))); live queries end", path: location,
                                 engineCode: Int(code), engineMessage: String(cString: strerror(code)))
        }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }
}
