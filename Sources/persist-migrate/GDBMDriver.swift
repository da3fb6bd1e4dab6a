import Foundation
import Logging
import Persist
import PersistGDBM

/// GNU dbm files, through `GDBMDataStore`, in the native or the raw layout.
struct GDBMDriver: StoreDriver {
    let logger: Logger

    /// How long to wait for another process's lock before reporting `locked`.
    static let lockWait = Duration.seconds(2)

    func openReadOnly(path: String, layout: Layout, unchanging: Bool) throws -> any DataStore {
        let store = GDBMDataStore(path: path, options: .init(
            readOnly: true, createIfMissing: false, layout: layout, lockWait: Self.lockWait, logger: logger))
        try store.setup()
        return store
    }

    func openWritable(path: String, layout: Layout, create: Bool, privateFile: Bool) throws -> any DataStore {
        let options = GDBMDataStore.Options(createIfMissing: create, layout: layout, lockWait: Self.lockWait, logger: logger)
        let store = privateFile ? GDBMDataStore.buildingPrivateFile(at: path, options: options)
            : GDBMDataStore(path: path, options: options)
        try store.setup()
        return store
    }

    func companionFiles(of path: String) -> [String] {
        GDBMDataStore.companionSuffixes.map { path + $0 }
    }

    /// An existing GDBM file is opened once for writing (which completes any interrupted commit
    /// from its journal), closed, and copied byte for byte beside itself, with its permissions,
    /// owner and group.
    var existingTargetStrategy: ExistingTargetStrategy {
        .stagedCopy { [logger] path, copy, layout in
            let store = try GDBMDriver(logger: logger).openWritable(path: path, layout: layout, create: false,
                                                                    privateFile: false)
            try store.tearDown()
            do {
                try FileManager.default.copyItem(atPath: path, toPath: copy)
                FileSystem.copyOwnership(of: path, to: copy)
            } catch {
                // The folder refuses a new file (its permissions, an immutable or read-only file
                // system): the new version cannot be created there, 73, as a new target's cannot.
                if let code = FileSystem.systemError(error), [EACCES, EPERM, EROFS].contains(code) {
                    throw ToolFailure(.cannotCreate, code: "readOnly", "cannot copy \(path) to build the new version "
                                        + "beside it: " + FileSystem.reason(error), hint: "\(path) was left as it was; "
                                        + "its folder cannot be written (the new version is built beside it and renamed "
                                        + "into place); check the folder's permissions, or choose another target path")
                }
                // Writing the copy failed (a full disk, a file size limit): an I/O error, 74, as a
                // failed write of the copy's items is; the target itself was opened and is fine.
                throw ToolFailure(.ioError, code: "io", "cannot copy \(path) to build the new version beside it: "
                                    + FileSystem.reason(error), hint: "\(path) was left as it was; check free disk space "
                                    + "and the file size limit (ulimit -f) for a copy of it beside it")
            }
        }
    }

    /// A GDBM write block is held in memory until it commits: batches keep memory flat.
    var writesInOneBlock: Bool { false }
}
