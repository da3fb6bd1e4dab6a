internal import CGDBM
import Foundation
import Persist

/// The one owner of an open `GDBM_FILE`.
///
/// A GDBM handle is not thread-safe, even for reads (a fetch moves the handle's bucket cache), so
/// every call on it happens while `lock` is held. Every `datum` GDBM hands back is freed here,
/// exactly once, after the caller's closure has looked at its bytes. The handle is closed by
/// ``close()`` or, failing that, by `deinit`.
final class GDBMHandle: @unchecked Sendable {
    // @unchecked Sendable: `file` is only used while `lock` is held.
    private let lock = NSLock()
    private var file: OpaquePointer?
    /// The database file, for messages.
    let path: String

    /// How the file is opened.
    enum Access {
        case reader, writer, creator
    }

    private init(file: OpaquePointer, path: String) {
        self.file = file
        self.path = path
    }

    deinit {
        if let file { gdbm_close(file) }
    }

    /// How many hash buckets GDBM keeps in memory per handle (4 MiB with 4 KiB blocks).
    static let bucketCacheSize = 1024

    /// Opens `path` with GDBM's own locking: one writer or many readers across processes.
    ///
    /// Every handle uses `GDBM_NOMMAP` and a fixed bucket cache. Writers need it: GDBM then writes
    /// its buckets and header with `write(2)`, which the kernel copies whole for a page-aligned
    /// page, where a `memcpy` into a shared mapping can be cut short by a SIGKILL and leave a torn
    /// header that GDBM refuses to open. Readers need it for memory: a mapping (and GDBM's
    /// automatic cache) grows with the file, so a scan of a large file would hold it all.
    ///
    /// - Throws: the mapped GDBM error, `DataStoreError.Code.locked` when another handle holds the file.
    static func open(path: String, access: Access) throws -> GDBMHandle {
        let mode: Int32
        switch access {
        case .reader: mode = GDBM_READER
        case .writer: mode = GDBM_WRITER
        case .creator: mode = GDBM_WRCREAT
        }
        persist_gdbm_clear_errno()
        guard let file = gdbm_open(path, 0, mode | GDBM_NOMMAP | GDBM_CLOEXEC, 0o644, nil) else {
            let systemError = errno
            let code = persist_gdbm_errno()
            throw GDBMErrors.error(code: code, systemError: gdbm_check_syserr(code) != 0 ? systemError : 0,
                                   path: path, action: access == .reader ? "open (read-only)" : "open")
        }
        let handle = GDBMHandle(file: file, path: path)
        var cacheSize = bucketCacheSize
        // GDBM refuses options on a file that needs recovery; such a handle is only recovered or refused.
        if gdbm_needs_recovery(file) == 0,
           gdbm_setopt(file, GDBM_SETCACHESIZE, &cacheSize, Int32(MemoryLayout<Int>.size)) != 0 {
            throw handle.lastError(file, "set the bucket cache of")
        }
        return handle
    }

    private func locked<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        lock.lock()
        defer { lock.unlock() }
        guard let file else {
            throw DataStoreError(.misuse, "the GDBM file at \(path) is already closed", path: path)
        }
        return try body(file)
    }

    /// The error GDBM recorded for its last call on `file`; call it while holding the lock.
    private func lastError(_ file: OpaquePointer, _ action: String) -> DataStoreError {
        let code = gdbm_last_errno(file)
        let systemError = gdbm_check_syserr(code) != 0 ? gdbm_last_syserr(file) : 0
        return GDBMErrors.error(code: code, systemError: systemError, path: path, action: action)
    }

    private func isNotFound(_ file: OpaquePointer) -> Bool {
        let code = Int(gdbm_last_errno(file))
        return code == GDBM_ITEM_NOT_FOUND || code == GDBM_NO_ERROR
    }

    // MARK: Records

    /// Calls `body` with the value stored under `key`, or returns `nil` when there is none.
    func fetch<R>(_ key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        let value = try locked { file in
            let value = try Self.withDatum(key, path: path) { gdbm_fetch(file, $0) }
            if value.dptr == nil && !isNotFound(file) { throw lastError(file, "read a record from") }
            return value
        }
        guard let pointer = value.dptr else { return nil }
        defer { free(pointer) }
        return try body(UnsafeRawBufferPointer(start: pointer, count: Int(value.dsize)))
    }

    /// Whether a value is stored under `key`.
    func contains(_ key: UnsafeRawBufferPointer) throws -> Bool {
        try locked { file in
            let found = try Self.withDatum(key, path: path) { gdbm_exists(file, $0) }
            if found != 0 { return true }
            if !isNotFound(file) { throw lastError(file, "look up a record in") }
            return false
        }
    }

    /// Stores `value` under `key`, replacing any value there.
    func store(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
        try locked { file in
            let result = try Self.withDatum(key, path: path) { keyDatum in
                try Self.withDatum(value, path: path) { valueDatum in
                    gdbm_store(file, keyDatum, valueDatum, GDBM_REPLACE)
                }
            }
            if result != 0 { throw lastError(file, "store a record in") }
        }
    }

    /// Stores `value` under `key` unless a value is stored there; `false` when one was.
    func insert(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool {
        try locked { file in
            let result = try Self.withDatum(key, path: path) { keyDatum in
                try Self.withDatum(value, path: path) { valueDatum in
                    gdbm_store(file, keyDatum, valueDatum, GDBM_INSERT)
                }
            }
            if result == 1 { return false }
            if result != 0 { throw lastError(file, "store a record in") }
            return true
        }
    }

    /// Removes the value under `key`; `false` when there was none.
    @discardableResult
    func delete(_ key: UnsafeRawBufferPointer) throws -> Bool {
        try locked { file in
            if try Self.withDatum(key, path: path, { gdbm_delete(file, $0) }) == 0 { return true }
            if isNotFound(file) { return false }
            throw lastError(file, "delete a record from")
        }
    }

    /// Applies journal entries in order: a store replaces any value, a delete of a missing key is fine.
    func apply(_ entries: [GDBMJournalEntry]) throws {
        for entry in entries {
            switch entry {
            case .store(let key, let value):
                try key.withUnsafeBytes { keyBytes in
                    try value.withUnsafeBytes { valueBytes in try store(keyBytes, valueBytes) }
                }
            case .delete(let key):
                try key.withUnsafeBytes { _ = try delete($0) }
            }
        }
    }

    /// Calls `body` with every key in GDBM's order until it returns `false`.
    ///
    /// The lock is held only inside each GDBM call, never while `body` runs.
    func forEachKey(_ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
        var current = try locked { file in
            let key = gdbm_firstkey(file)
            if key.dptr == nil && !isNotFound(file) { throw lastError(file, "read the keys of") }
            return key
        }
        while let pointer = current.dptr {
            let next: datum
            do {
                guard try body(UnsafeRawBufferPointer(start: pointer, count: Int(current.dsize))) else {
                    free(pointer)
                    return
                }
                next = try locked { file in
                    let key = gdbm_nextkey(file, current)
                    if key.dptr == nil && !isNotFound(file) { throw lastError(file, "read the keys of") }
                    return key
                }
            } catch {
                free(pointer)
                throw error
            }
            free(pointer)
            current = next
        }
    }

    /// How many records the file holds, counted by GDBM from its bucket headers (`gdbm_count`).
    func count() throws -> Int {
        try locked { file in
            var count: gdbm_count_t = 0
            if gdbm_count(file, &count) != 0 { throw lastError(file, "count the records of") }
            return Int(clamping: count)
        }
    }

    /// Whether the file holds no record at all.
    func isEmpty() throws -> Bool {
        var empty = true
        try forEachKey { _ in
            empty = false
            return false
        }
        return empty
    }

    // MARK: File

    /// Writes GDBM's state and flushes the file to the disk (`gdbm_sync`).
    func sync() throws {
        try locked { file in
            if gdbm_sync(file) != 0 { throw lastError(file, "sync") }
        }
    }

    /// Whether GDBM found the file not closed cleanly (`GDBM_NEED_RECOVERY`).
    func needsRecovery() throws -> Bool {
        try locked { file in gdbm_needs_recovery(file) != 0 }
    }

    /// Rebuilds the file from its buckets with `gdbm_recover`.
    ///
    /// GDBM builds the rebuilt file as a temporary `<name>.XXXXXX` beside the file, and leaves it
    /// there when the rebuild fails (on a full disk, say), without recording why on the handle;
    /// a failed recovery removes that file and reports the system's reason.
    func recover(force: Bool, keepBackup: Bool) throws -> GDBMRecoveryReport {
        try locked { file in
            var recovery = gdbm_recovery()
            var flags: Int32 = 0
            if force { flags |= GDBM_RCVR_FORCE }
            if keepBackup { flags |= GDBM_RCVR_BACKUP }
            let temporaries = recoveryTemporaries()
            persist_gdbm_clear_errno()
            let result = gdbm_recover(file, &recovery, flags)
            let systemError = errno
            var backupPath: String?
            if let name = recovery.backup_name {
                backupPath = String(cString: name)
                free(name)
            }
            if result != 0 {
                let folder = LiteralPath.url(path).deletingLastPathComponent().path
                for name in recoveryTemporaries().subtracting(temporaries) {
                    unlink((folder as NSString).appendingPathComponent(name))
                }
                throw recoveryFailure(file, systemError: systemError)
            }
            return GDBMRecoveryReport(
                recoveredKeys: Int(recovery.recovered_keys), recoveredBuckets: Int(recovery.recovered_buckets),
                failedKeys: Int(recovery.failed_keys), failedBuckets: Int(recovery.failed_buckets),
                duplicateKeys: Int(recovery.duplicate_keys), backupPath: backupPath)
        }
    }

    /// The names of the files beside this one that `gdbm_recover` could have made as its
    /// temporary copy: `<name>.` and six letters or digits (`mkstemp`'s pattern).
    private func recoveryTemporaries() -> Set<String> {
        let url = LiteralPath.url(path)
        let prefix = url.lastPathComponent + "."
        return Set(FileNames.entries(of: url.deletingLastPathComponent().path, startingWith: prefix).filter { name in
            let suffix = name.utf8.dropFirst(prefix.utf8.count)
            return suffix.count == 6 && suffix.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
        })
    }

    /// The error of a failed `gdbm_recover`: GDBM's code from the handle or, when the
    /// failure was in the new file, from `gdbm_errno`, with the system's reason when it is one.
    private func recoveryFailure(_ file: OpaquePointer, systemError: Int32) -> DataStoreError {
        var code = gdbm_last_errno(file)
        var system = gdbm_check_syserr(code) != 0 ? gdbm_last_syserr(file) : 0
        if code == GDBM_NO_ERROR {
            code = persist_gdbm_errno()
            system = code == GDBM_NO_ERROR || gdbm_check_syserr(code) != 0 ? systemError : 0
        }
        if code == GDBM_NO_ERROR { code = Int32(GDBM_FILE_WRITE_ERROR) }
        return GDBMErrors.error(code: code, systemError: system, path: path, action: "recover")
    }

    /// The device and inode of the file the handle has open, which a `gdbm_reorganize` or
    /// `gdbm_recover` through the handle replaces with the rebuilt file; `nil` when closed.
    func openedFileIdentity() -> FileIdentity? {
        try? locked { file -> FileIdentity? in
            var status = stat()
            guard fstat(gdbm_fdesc(file), &status) == 0 else { return nil }
            return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        }
    }

    /// Runs `body` with the raw handle while holding the lock.
    func withFile<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        try locked(body)
    }

    /// Closes the file. Later calls throw `DataStoreError.Code.misuse`.
    func close() throws {
        try locked { file in
            self.file = nil
            if gdbm_close(file) != 0 {
                let code = persist_gdbm_errno()
                throw GDBMErrors.error(code: code, systemError: 0, path: path, action: "close")
            }
        }
    }

    // MARK: Datums

    /// Calls `body` with a datum over `bytes`. GDBM rejects a NULL `dptr` even for zero bytes, so
    /// empty input points at a local byte.
    private static func withDatum<R>(
        _ bytes: UnsafeRawBufferPointer, path: String, _ body: (datum) throws -> R
    ) throws -> R {
        try GDBMStorageFormat.checkDatumSize(bytes.count, path: path)
        if let base = bytes.baseAddress {
            let pointer = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self))
            return try body(datum(dptr: pointer, dsize: Int32(bytes.count)))
        }
        var placeholder: CChar = 0
        return try withUnsafeMutablePointer(to: &placeholder) { pointer in
            try body(datum(dptr: pointer, dsize: 0))
        }
    }
}
