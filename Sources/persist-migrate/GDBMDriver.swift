import Foundation
import Logging
import Persist
import PersistGDBM

/// GNU dbm files, through `GDBMDataStore`, in the layout the plan gives (native or raw).
struct GDBMDriver: FileStoreDriver {
    let plan: StorePlan
    let logger: Logger

    /// How long to wait for another process's lock before reporting `locked`.
    static let lockWait = Duration.seconds(2)

    func openSource(at path: String, signals: SignalWatcher) throws -> OpenedSource {
        let store = GDBMDataStore(path: path, options: .init(
            readOnly: true, createIfMissing: false, layout: plan.layout, lockWait: Self.lockWait, logger: logger))
        try store.setup()
        return OpenedSource(store: store, checkUnchanged: nil)
    }

    func openTarget(at path: String, create: Bool, privateFile: Bool, signals: SignalWatcher) throws -> any DataStore {
        try open(path, create: create, privateFile: privateFile)
    }

    private func open(_ path: String, create: Bool, privateFile: Bool) throws -> GDBMDataStore {
        let options = GDBMDataStore.Options(createIfMissing: create, layout: plan.layout, lockWait: Self.lockWait,
                                            logger: logger)
        let store = privateFile ? GDBMDataStore.buildingPrivateFile(at: path, options: options)
            : GDBMDataStore(path: path, options: options)
        try store.setup()
        return store
    }

    func companionFiles(of path: String) -> [String] {
        GDBMDataStore.companionSuffixes.map { path + $0 }
    }

    /// Staged, in batches: a GDBM write block is held in memory until it commits. An existing
    /// file is opened once for writing (which completes any interrupted commit from its journal),
    /// closed, and copied byte for byte beside itself, with its permissions, owner and group.
    var targetStrategy: TargetStrategy {
        .stagedFile(finalPath: finalPath, inOneBlock: false, copyExisting: plan.exists ? copyExisting : nil)
    }

    private func copyExisting(_ path: String, to copy: String) throws {
        try open(path, create: false, privateFile: false).tearDown()
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

    /// Recovers `copy`, a copy of this source that the program that last wrote it did not close
    /// cleanly (`--recover`), and gives what recovery kept and lost, with the plan to read the copy
    /// with: its layout detected in the copy, unless `--from-layout` gave it.
    func recover(copy: String, rawType: String) throws -> (plan: StorePlan, report: GDBMRecoveryReport) {
        let report = try GDBMDataStore.recover(path: copy, keepBackup: false, logger: logger)
        var plan = plan
        if !plan.layoutGiven,
           let layout = try StoreResolver.detectLayout(path: copy, finding: plan.finding, role: "source", rawType: rawType) {
            plan.layout = layout
            plan.layoutDetected = true
        }
        return (plan, report)
    }
}
