import Foundation
import Persist

/// Finishes a commit that was interrupted after its journal was complete.
///
/// The interrupted commit may have stopped inside a GDBM update. GDBM writes a bucket before the
/// header that accounts for the space the bucket uses, so the file can be left with a header
/// whose `next_block` lies below space a bucket already refers to; GDBM then rejects that bucket
/// (and `gdbm_recover` would drop all its records), or reports `GDBM_NEED_RECOVERY`. So the replay
/// works on a copy: it raises the copy's `next_block` past anything the interrupted update could
/// have reserved, rebuilds the copy from its buckets with `gdbm_recover`, applies the journal to
/// it, and renames it over the original. The original is never changed in place, so a crash
/// during the replay leaves the file and journal as they were, and the next open starts again.
enum JournalReplay {
    /// Replays `entries` into the file at `path`, whose writer lock the caller holds.
    static func replay(_ entries: [GDBMJournalEntry], path: String, options: GDBMDataStore.Options) throws {
        let temporary = path + replaySuffix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(temporary) }
        try copyFile(from: path, to: temporary)
        try GDBMHeader.coverInterruptedAllocations(path: temporary)
        let rebuilt = try GDBMHandle.open(path: temporary, access: .writer)
        let report = try rebuilt.recover(force: true, keepBackup: false)
        options.logger.notice("rebuilt a copy of the GDBM file to replay the journal into",
                              metadata: ["store": .string(path), "records": .stringConvertible(report.recoveredKeys),
                                         "lost": .stringConvertible(report.failedKeys + report.failedBuckets)])
        try rebuilt.apply(entries)
        if options.durability == .full { try rebuilt.sync() }
        try rebuilt.close()
        if rename(temporary, path) != 0 {
            let code = errno
            throw DataStoreError(.io, "could not move the replayed copy over \(path): \(GDBMErrors.systemText(code))",
                                 path: path, engineCode: Int(code), engineMessage: GDBMErrors.systemText(code))
        }
        if options.durability == .full { try GDBMJournal.syncDirectory(of: path) }
    }

    /// What the names of replay copies add to the database's name.
    static let replaySuffix = ".replay-"

    /// Removes copies left behind by replays that were themselves interrupted. Only the holder of
    /// the file's writer lock replays, so while the caller holds it, no such copy is in use.
    static func removeLeftovers(of path: String) {
        let url = LiteralPath.url(path)
        let prefix = url.lastPathComponent + replaySuffix
        let directory = url.deletingLastPathComponent()
        for name in FileNames.entries(of: directory.path, startingWith: prefix) {
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    /// Copies a file's bytes, permissions and (when allowed) owner.
    private static func copyFile(from source: String, to destination: String) throws {
        func failure(_ action: String) -> DataStoreError {
            GDBMErrors.besideFile(errno, "could not \(action) while replaying the journal of \(source)", path: source)
        }
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure("read the file") }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { throw failure("examine the file") }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, status.st_mode & 0o777)
        guard output >= 0 else { throw failure("create a copy of the file") }
        defer { close(output) }
        _ = fchown(output, status.st_uid, status.st_gid)
        // The umask took bits away from the mode `open` was given.
        guard fchmod(output, status.st_mode & 0o777) == 0 else { throw failure("set the permissions of a copy of the file") }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read the file")
            }
            if count == 0 { break }
            var done = 0
            while done < count {
                let written = buffer.withUnsafeBytes { write(output, $0.baseAddress.map { $0 + done }, count - done) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure("write a copy of the file")
                }
                done += written
            }
        }
    }
}
