import Foundation
import Persist
import PersistGDBM

/// `gdbm-recover <path> <limit-bytes>`: recovers the GDBM file at `path` (without a backup) while
/// the size of every file the process writes is capped at `limit-bytes`, as on a disk with no
/// room for the rebuilt file; prints "recovered <keys>" or "failed <code> <message>".
enum RecoverMode {
    static let usage = "gdbm-recover <path> <limit-bytes>"

    static func run(_ arguments: [String]) throws {
        guard arguments.count == 2 else { Worker.usage(usage) }
        let limit = Worker.count(arguments, at: 1, default: 1, usage: usage)
        _ = try Worker.capFileSizes(at: rlim_t(limit))
        do {
            let report = try GDBMDataStore.recover(path: arguments[0], keepBackup: false)
            Worker.report("recovered \(report.recoveredKeys)")
        } catch let error as DataStoreError {
            Worker.report("failed \(error.code) \(error.message)")
        }
    }
}
