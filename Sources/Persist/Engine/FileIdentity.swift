import Foundation

/// The device and inode of a file: what tells an engine watching its file for live queries that
/// the file was removed or replaced.
///
/// ```swift
/// let watched = try FileIdentity.of(path, file: "the database")
/// // … later, on each poll:
/// guard try FileIdentity.of(path, file: "the database") == watched else { … }
/// ```
package struct FileIdentity: Sendable, Equatable {
    package let device: UInt64
    package let inode: UInt64

    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity of the file at `path`, called `file` in messages ("the database file").
    ///
    /// - Throws: `notFound`, saying live queries end, when there is no file at `path`.
    package static func of(_ path: String, file: String) throws -> FileIdentity {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            let message = String(cString: strerror(code))
            throw DataStoreError(.notFound, "\(file) at \(path) vanished while it was observed (\(message)); live "
                                    + "queries end", path: path, engineCode: Int(code), engineMessage: message)
        }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// The identity of the file at `path`, or `nil` when there is none.
    package static func existing(_ path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Throws `notFound` when `path` no longer names this file (removed, or replaced by another):
    /// a store's commit would go to a file no one can open again. `file` and `location` name it in
    /// the message ("the database file", the store's path).
    package func checkStillAt(_ path: String, file: String, location: String) throws {
        let now = FileIdentity.existing(path)
        guard now != self else { return }
        throw DataStoreError(
            .notFound,
            "\(file) at \(location) was \(now == nil ? "removed" : "replaced by another file") while the store had it "
                + "open; nothing of the write block was stored, since it would have gone to a file no path names. Set "
                + "the store up again", path: location)
    }

    /// The error that ends live queries when the path names another file than the one watched.
    package static func replaced(_ path: String, file: String) -> DataStoreError {
        DataStoreError(.notFound, "\(file) at \(path) was replaced by another file while it was observed; live queries "
                           + "end. Set the store up again to use the new file", path: path)
    }
}
