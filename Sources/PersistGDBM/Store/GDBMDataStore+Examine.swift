internal import CGDBM
import Foundation
import Persist

extension GDBMDataStore {
    /// What a GDBM file holds, as ``examineFile(atPath:lockWait:)`` finds it without changing it.
    package enum FileContents: Sendable, Equatable {
        /// Persist's native layout (the file has its format record).
        case native
        /// Records of another program: no format record (an empty file included).
        case foreign
        /// GDBM found the file not closed cleanly; it must be recovered before it can be read.
        case needsRecovery
    }

    /// Opens the GDBM file at `path` with GDBM's reader lock, looks for the native format record,
    /// and closes it again: nothing is written.
    ///
    /// - Throws: `locked` when another process writes the file (after `lockWait`), `corrupt` when
    ///   it is not a GDBM file GDBM can open (an empty file included), `notFound` for a missing
    ///   file, `invalidArgument` for a directory or another file that is not a regular one.
    package static func examineFile(atPath path: String, lockWait: Duration) throws -> FileContents {
        guard let claim = OpenFileRegistry.claim(path, writer: false) else {
            throw DataStoreError(.locked, "the GDBM file at \(path) is open for writing in this process", path: path)
        }
        defer { claim.release() }
        try ExistingFile.check(path, action: "examine", done: "examined")
        let handle = try GDBMOpenFile.waitWhileLocked(until: ContinuousClock.now + lockWait, lockWait: lockWait) {
            try GDBMHandle.open(path: path, access: .reader)
        }
        defer { try? handle.close() }
        if try handle.needsRecovery() { return .needsRecovery }
        let record = try GDBMStorageFormat.metadataKey.withUnsafeBytes { key in try handle.fetch(key) { [UInt8]($0) } }
        guard let record, record.starts(with: GDBMStorageFormat.metadataMagic) else { return .foreign }
        return .native
    }

    /// Whether `error` is GDBM's "the file needs recovery" (`GDBM_NEED_RECOVERY`).
    package static func isNeedsRecovery(_ error: DataStoreError) -> Bool {
        error.engineCode == Int(GDBM_NEED_RECOVERY)
    }
}
