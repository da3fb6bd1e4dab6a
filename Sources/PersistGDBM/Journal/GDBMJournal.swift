import Foundation
import Persist

/// The journal file beside a GDBM store (`<file>-journal`): one write block's changes, written
/// and checksummed before any of them touches the database, and emptied once they are applied.
///
/// The journal owns its file descriptor and closes it in ``close()`` or `deinit`. It is used only
/// by the store's writer (the serial write queue, or `open` and `close`).
final class GDBMJournal {
    /// The journal's own path.
    let path: String
    /// The database file it belongs to, which errors name.
    private let databasePath: String
    private let durability: Durability
    private var descriptor: Int32 = -1

    /// The journal path for a database file.
    static func path(forDatabase databasePath: String) -> String {
        databasePath + GDBMDataStore.companionSuffixes[0]
    }

    init(databasePath: String, durability: Durability) {
        path = Self.path(forDatabase: databasePath)
        self.databasePath = databasePath
        self.durability = durability
    }

    deinit {
        if descriptor >= 0 { Foundation.close(descriptor) }
    }

    private func ioError(_ action: String, _ code: Int32 = errno) -> DataStoreError {
        GDBMErrors.besideFile(code, "could not \(action) the journal \(path)", path: databasePath)
    }

    // MARK: Reading

    /// What the journal file holds, or `nil` when there is no journal or it is empty.
    static func read(path: String) throws -> JournalCodec.Contents? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            let code = errno
            throw DataStoreError(.io, "could not read the journal \(path): \(GDBMErrors.systemText(code))",
                                 path: path, engineCode: Int(code), engineMessage: GDBMErrors.systemText(code))
        }
        defer { Foundation.close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                throw DataStoreError(.io, "could not read the journal \(path): \(GDBMErrors.systemText(code))",
                                     path: path, engineCode: Int(code), engineMessage: GDBMErrors.systemText(code))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        if bytes.isEmpty { return nil }
        return bytes.withUnsafeBytes { JournalCodec.inspect($0) }
    }

    // MARK: Writing

    private func openForWriting() throws {
        guard descriptor < 0 else { return }
        var opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        var code = errno
        if opened < 0, GDBMErrors.deniesWriting(code), Self.isEmptyFile(path) {
            // An empty journal (nothing to replay) that a process of another user left when it was
            // killed between commits. The store holds the file's writer lock, so no one else uses
            // it: this store makes its own.
            opened = unlink(path) == 0 ? open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) : -1
            code = errno
        }
        guard opened >= 0 else { throw ioError("create", code) }
        descriptor = opened
        if durability == .full { try Self.syncDirectory(of: path) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: inout off_t) throws {
        var done = 0
        while done < bytes.count {
            let written = pwrite(descriptor, bytes.baseAddress.map { $0 + done }, bytes.count - done, offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw ioError("write")
            }
            done += written
            offset += off_t(written)
        }
    }

    private static func isEmptyFile(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && status.st_size == 0
    }

    /// Replaces the journal's contents with `entries` and, for `Durability.full`, syncs it.
    func write(_ entries: [GDBMJournalEntry]) throws {
        try openForWriting()
        if ftruncate(descriptor, 0) != 0 { throw ioError("empty") }
        var crc = CRC32()
        var offset: off_t = 0
        var buffer = JournalCodec.header(count: entries.count,
                                         payloadSize: entries.reduce(0) { $0 + JournalCodec.payloadSize(of: $1) })
        let chunkSize = 1 << 20
        buffer.reserveCapacity(chunkSize + 64)
        func flush() throws {
            try buffer.withUnsafeBytes { bytes in
                crc.update(bytes)
                try writeAll(bytes, at: &offset)
            }
            buffer.removeAll(keepingCapacity: true)
        }
        do {
            for entry in entries {
                JournalCodec.append(entry, to: &buffer)
                if buffer.count >= chunkSize { try flush() }
            }
            try flush()
            JournalCodec.appendUInt32(crc.value, to: &buffer)
            try buffer.withUnsafeBytes { try writeAll($0, at: &offset) }
            if durability == .full, fsync(descriptor) != 0 { throw ioError("sync") }
        } catch {
            _ = ftruncate(descriptor, 0)
            throw error
        }
    }

    /// Empties the journal once its changes are applied.
    func clear() throws {
        guard descriptor >= 0 else { return }
        if ftruncate(descriptor, 0) != 0 { throw ioError("empty") }
    }

    /// Closes the journal and, when `removingEmptyFile`, removes its file when it is empty
    /// (nothing left to replay).
    ///
    /// - Parameter removingEmptyFile: `false` when the database file is no longer at its path: the
    ///   journal there then belongs to the file that replaced it, and to the store that has it open.
    func close(removingEmptyFile: Bool) {
        if descriptor >= 0 {
            Foundation.close(descriptor)
            descriptor = -1
        }
        var status = stat()
        if removingEmptyFile, stat(path, &status) == 0, status.st_size == 0 { unlink(path) }
    }

    /// Removes the journal file of the database at `databasePath` after a replay or a discarded torn write.
    static func discard(forDatabase databasePath: String, durability: Durability) throws {
        let path = path(forDatabase: databasePath)
        if unlink(path) != 0 && errno != ENOENT {
            throw GDBMErrors.besideFile(errno, "could not remove the journal \(path)", path: databasePath)
        }
        if durability == .full { try syncDirectory(of: path) }
    }

    /// Makes a file's creation, renaming or removal durable by syncing its directory.
    static func syncDirectory(of path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw DataStoreError(.io, "could not open the directory of \(path) to sync it: \(GDBMErrors.systemText(code))",
                                 path: path, engineCode: Int(code), engineMessage: GDBMErrors.systemText(code))
        }
        defer { Foundation.close(descriptor) }
        if fsync(descriptor) != 0 && errno != EINVAL {
            let code = errno
            throw DataStoreError(.io, "could not sync the directory of \(path): \(GDBMErrors.systemText(code))",
                                 path: path, engineCode: Int(code), engineMessage: GDBMErrors.systemText(code))
        }
    }
}
