import Foundation
import Persist

/// The checks a GDBM file must pass before GDBM opens it for `recover(path:)` or `examineFile`:
/// GDBM would wait forever on a FIFO for a writer, and reports a directory as a read error.
enum ExistingFile {
    /// Throws unless `path` is a regular file with some bytes.
    ///
    /// - Parameters:
    ///   - action: what is done to the file, as a verb ("recover").
    ///   - done: the same as a participle ("recovered").
    /// - Throws: `notFound` for a missing file, `invalidArgument` for a directory or another file
    ///   that is not regular, `corrupt` for an empty file.
    static func check(_ path: String, action: String, done: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw DataStoreError(.notFound, "there is no GDBM file at \(path) to \(action)", path: path)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw DataStoreError(.invalidArgument, "\(path) is not a regular file, so it cannot be \(done)", path: path)
        }
        guard status.st_size > 0 else {
            throw DataStoreError(.corrupt, "\(path) is empty (0 bytes), not a GDBM file, so there is nothing to \(action)",
                                 path: path)
        }
    }
}
