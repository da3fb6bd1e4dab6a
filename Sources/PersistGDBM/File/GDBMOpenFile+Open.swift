import Foundation
import Logging
import Persist

extension GDBMOpenFile {
    /// Opens `path` as `options` say: checks the file, waits for locks, replays or discards a
    /// journal, and checks the native format record. Nothing is written to a file that fails a check.
    static func open(path: String, options: GDBMDataStore.Options, buildsPrivateFile: Bool) throws -> GDBMOpenFile {
        let codec = try options.layout.codec()
        let logger = options.logger
        let deadline = ContinuousClock.now + options.lockWait
        let writer = !options.readOnly
        let claim = try waitWhileLocked(until: deadline, lockWait: options.lockWait) {
            guard let claim = OpenFileRegistry.claim(path, writer: writer) else {
                throw DataStoreError(.locked,
                                     "the GDBM file at \(path) is already open in this process through another GDBMDataStore"
                                        + (writer ? "" : " with write access")
                                        + "; share that store, or tear it down first", path: path)
            }
            return claim
        }
        try checkFile(path: path, options: options, codec: codec)
        // The journal and replay copies live beside the file itself, whatever link leads to it.
        let filePath = OpenFileRegistry.canonicalPath(path)
        func openHandle() throws -> GDBMHandle {
            try waitWhileLocked(until: deadline, lockWait: options.lockWait) {
                do {
                    return try GDBMHandle.open(path: path, access: writer ? .writer : .reader)
                } catch let error as DataStoreError where error.code == .corrupt {
                    throw explainForeignFile(error, path: path)
                }
            }
        }
        var handle = try openHandle()
        if writer { JournalReplay.removeLeftovers(of: filePath) }
        if try finishInterruptedCommit(path: path, filePath: filePath, options: options) {
            // The replay moved a rebuilt file into place; open that one.
            try handle.close()
            handle = try openHandle()
        }
        if try handle.needsRecovery() {
            throw GDBMErrors.needsRecovery(path: path)
        }
        let format = try checkFormat(path: path, codec: codec, handle: handle, logger: logger)
        let catalog = try loadCatalog(path: path, codec: codec, handle: handle)
        let relations = try loadRelations(path: path, codec: codec, handle: handle)
        logger.debug("opened GDBM file", metadata: ["store": .string(path), "layout": .string("\(options.layout)")])
        return GDBMOpenFile(path: path, filePath: filePath, options: options, buildsPrivateFile: buildsPrivateFile,
                            codec: codec, handle: handle, claim: claim,
                           needsFormatRecord: format.needsRecord, formatVersion: format.version, catalog: catalog,
                           relations: relations)
    }

    /// Retries `attempt` while it throws `DataStoreError.Code.locked`, until `deadline`.
    static func waitWhileLocked<T>(until deadline: ContinuousClock.Instant, lockWait: Duration,
                                   _ attempt: () throws -> T) throws -> T {
        var pause = Duration.milliseconds(2)
        while true {
            do {
                return try attempt()
            } catch var error as DataStoreError where error.code == .locked {
                let now = ContinuousClock.now
                guard now < deadline else {
                    if lockWait > .zero {
                        // The advice to give the store a lock wait becomes one to lengthen it.
                        error.message = error.message.replacingOccurrences(
                            of: "give the store a lock wait", with: "give the store a longer lock wait")
                            + " (waited \(lockWait) for it: it was held that long, or taken in turn by several)"
                    }
                    throw error
                }
                let rest = deadline - now
                let nap = rest < pause ? rest : pause
                let (seconds, attoseconds) = nap.components
                Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
                pause = min(pause * 2, .milliseconds(50))
            }
        }
    }

    /// Refuses directories, special files and empty files; creates a missing file when allowed.
    private static func checkFile(path: String, options: GDBMDataStore.Options, codec: GDBMLayoutCodec) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            if code == ENOTDIR {
                throw DataStoreError(.notFound, "there is no GDBM file at \(path), and none can be made there: a part of "
                                        + "the path before the file's name is a file, not a folder", path: path,
                                     engineCode: Int(code), engineMessage: GDBMErrors.systemText(code))
            }
            guard code == ENOENT else {
                throw DataStoreError(.io, "could not examine \(path): \(GDBMErrors.systemText(code))", path: path,
                                     engineCode: Int(code), engineMessage: GDBMErrors.systemText(code))
            }
            guard options.createIfMissing && !options.readOnly else {
                throw DataStoreError(.notFound, "there is no GDBM file at \(path); check the path"
                                        + (options.readOnly ? "" : ", or set createIfMissing to make a new one"), path: path)
            }
            // A symbolic link to a missing file gets its file made where it leads.
            try createFile(path: danglingLinkDestination(of: path) ?? path, options: options, codec: codec)
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR:
            throw DataStoreError(.invalidArgument,
                                 "\(path) is a directory, not a GDBM file; give the path of the database file itself", path: path)
        default:
            throw DataStoreError(.invalidArgument, "\(path) is not a regular file, so it cannot be a GDBM database", path: path)
        }
        if status.st_size == 0 {
            throw DataStoreError(.corrupt, "the file at \(path) is empty (0 bytes), so it is not a GDBM database; "
                                    + "remove it to let the store create a new one, or check the path", path: path)
        }
    }

    /// Creates a new database file atomically: built under a temporary name (with the format
    /// record for the native layout), then linked into place, so that a crash never leaves a
    /// half-made file at `path`.
    /// Where a symbolic link to a missing file leads (following links to links), or `nil` when
    /// `path` is no symbolic link.
    private static func danglingLinkDestination(of path: String) -> String? {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { break }
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return nil }
            current = target.hasPrefix("/")
                ? target : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
        }
        return current == path ? nil : current
    }

    private static func createFile(path: String, options: GDBMDataStore.Options, codec: GDBMLayoutCodec) throws {
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isDirectory),
              isDirectory.boolValue
        else {
            throw DataStoreError(.notFound, "cannot create the GDBM file at \(path): the folder \(folder) does not exist",
                                 path: path)
        }
        removeStaleCreations(of: path)
        let temporary = path + Self.creatingMarker + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(temporary) }
        // Failures are reported against the file the caller asked for, not the temporary name.
        func reported<R>(_ body: () throws -> R) throws -> R {
            do {
                return try body()
            } catch var error as DataStoreError {
                error.message = error.message.replacingOccurrences(of: temporary, with: path)
                error.path = path
                throw error
            }
        }
        let handle = try reported { try GDBMHandle.open(path: temporary, access: .creator) }
        try reported {
            if case .native = codec {
                try GDBMStorageFormat.metadataKey.withUnsafeBytes { key in
                    try GDBMStorageFormat.metadataValue.withUnsafeBytes { value in try handle.store(key, value) }
                }
            }
            if options.durability == .full { try handle.sync() }
        }
        // The handle keeps the writer's lock on the new file until a journal left beside it is
        // gone, so that no store commits to the file, writing a journal of its own, before then.
        if link(temporary, path) == 0 {
            try discardOrphanJournal(of: path, options: options)
        } else if errno != EEXIST {
            let code = errno
            throw DataStoreError(.io, "could not create the GDBM file at \(path): \(GDBMErrors.systemText(code))",
                                 path: path, engineCode: Int(code), engineMessage: GDBMErrors.systemText(code))
        }
        try reported { try handle.close() }
        if options.durability == .full { try GDBMJournal.syncDirectory(of: path) }
        options.logger.debug("created a new GDBM file", metadata: ["store": .string(path), "layout": .string("\(options.layout)")])
    }

    /// Removes the journal beside a file this store just created: it was left by a file removed
    /// since (a `deleteFiles` cut short between its two deletions, or a database deleted by hand),
    /// and replaying it would put a part of that file's data into the new, empty one.
    private static func discardOrphanJournal(of path: String, options: GDBMDataStore.Options) throws {
        let journalPath = GDBMJournal.path(forDatabase: path)
        var status = stat()
        guard lstat(journalPath, &status) == 0 else { return }
        options.logger.notice("removing the journal of a removed file beside the file just created",
                              metadata: ["store": .string(path), "journal": .string(journalPath)])
        try GDBMJournal.discard(forDatabase: path, durability: options.durability)
    }

    /// What follows a new file's path in the name of the file it is made in, before the process's
    /// identifier and a random number.
    static let creatingMarker = ".creating-"

    /// Removes the files that creations of `path` by processes that no longer run left behind
    /// (a process killed while it made the file, before it could remove its own).
    private static func removeStaleCreations(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let prefix = (path as NSString).lastPathComponent + creatingMarker
        for name in FileNames.entries(of: folder, startingWith: prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let owner = rest.split(separator: "-").first.flatMap({ pid_t($0) }), owner > 0,
                  kill(owner, 0) != 0, errno == ESRCH else { continue }
            unlink(folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name))
        }
    }

    /// Gives a clearer message when a file GDBM rejects is recognisably something else.
    private static func explainForeignFile(_ error: DataStoreError, path: String) -> DataStoreError {
        guard let handle = FileHandle(forReadingAtPath: path) else { return error }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard header.elementsEqual(Array("SQLite format 3\0".utf8)) else { return error }
        var explained = error
        explained.message = "\(path) is an SQLite database, not a GDBM file; open it with SQLiteDataStore "
            + "(GDBM said: \(error.engineMessage ?? "bad magic number"))"
        return explained
    }

    /// Replays a complete journal (see ``JournalReplay``), discards a torn one, and refuses a
    /// pending journal when read-only. The caller holds the file's lock. Returns `true` when the
    /// file was replaced by a replayed copy. `filePath` is `path` with symbolic links resolved.
    private static func finishInterruptedCommit(path: String, filePath: String, options: GDBMDataStore.Options) throws -> Bool {
        let journalPath = GDBMJournal.path(forDatabase: filePath)
        let logger = options.logger
        switch try GDBMJournal.read(path: journalPath) {
        case nil:
            return false
        case .newer(let version):
            throw DataStoreError(.unsupported, "the journal \(journalPath) has format version \(version), written by a newer "
                                    + "Persist; open the file with that version to finish its last commit", path: path)
        case .torn(let reason):
            logger.notice("discarding a torn journal: its commit never started applying",
                          metadata: ["store": .string(path), "journal": .string(journalPath), "reason": .string(reason)])
            if !options.readOnly { try GDBMJournal.discard(forDatabase: filePath, durability: options.durability) }
            return false
        case .complete(let entries):
            guard !options.readOnly else {
                throw DataStoreError(.readOnly, "the GDBM file at \(path) has an unfinished commit in \(journalPath) (the "
                                        + "program writing it stopped mid-commit); open it once without readOnly to "
                                        + "finish that commit, then read it", path: path)
            }
            logger.notice("replaying the journal of an interrupted commit",
                          metadata: ["store": .string(path), "entries": .stringConvertible(entries.count)])
            try JournalReplay.replay(entries, path: filePath, options: options)
            try GDBMJournal.discard(forDatabase: filePath, durability: options.durability)
            return true
        }
    }

    /// Checks the native layout's format record; `true` when an empty file must get one at the next commit.
    private static func checkFormat(path: String, codec: GDBMLayoutCodec, handle: GDBMHandle, logger: Logger)
        throws -> (needsRecord: Bool, version: UInt64)
    {
        guard case .native = codec else { return (false, 1) }
        let stored = try GDBMStorageFormat.metadataKey.withUnsafeBytes { key in try handle.fetch(key) { [UInt8]($0) } }
        guard let stored else {
            guard try handle.isEmpty() else {
                throw DataStoreError(.corrupt, "\(path) is a GDBM file but not in Persist's native layout (it has no format "
                                        + "record); to read a file written by another program, open it with layout .raw",
                                     path: path)
            }
            logger.debug("adopting an empty GDBM file for the native layout", metadata: ["store": .string(path)])
            return (true, 1)
        }
        let version: UInt64
        do {
            version = try GDBMStorageFormat.decodeMetadataValue(stored)
        } catch let error as DataStoreError {
            throw DataStoreError(.corrupt, "the format record of \(path) is damaged: \(error.message)", path: path)
        }
        guard version <= GDBMStorageFormat.formatVersion else {
            throw DataStoreError(.unsupported, "\(path) was written in format version \(version) of Persist's GDBM layout; "
                                    + "this version reads up to \(GDBMStorageFormat.formatVersion). Open it with a newer Persist",
                                 path: path)
        }
        return (false, version)
    }

    /// The relations a native file declares (none when it has no relation record).
    ///
    /// - Throws: `corrupt` (or `unsupported`, for a newer record) naming the file and the record.
    private static func loadRelations(path: String, codec: GDBMLayoutCodec, handle: GDBMHandle) throws -> [DataStoreRelation] {
        guard case .native = codec else { return [] }
        let stored = try GDBMRelationFormat.key.withUnsafeBytes { key in try handle.fetch(key) { [UInt8]($0) } }
        guard let stored else { return [] }
        do {
            return try GDBMRelationFormat.decode(stored)
        } catch var error as DataStoreError {
            error.message = "the relation record of \(path) (key \(GDBMRelationFormat.key.withUnsafeBytes(NativeKeyCodec.describe))) "
                + "cannot be read: \(error.message)"
                + (error.code == .corrupt ? "; restore the file from a backup" : "")
            error.path = path
            throw error
        }
    }

    /// The index catalog of a native file (empty when it has none).
    private static func loadCatalog(path: String, codec: GDBMLayoutCodec, handle: GDBMHandle) throws -> GDBMIndexCatalog {
        guard case .native = codec else { return GDBMIndexCatalog() }
        let stored = try GDBMIndexFormat.catalogKey.withUnsafeBytes { key in try handle.fetch(key) { [UInt8]($0) } }
        guard let stored else { return GDBMIndexCatalog() }
        do {
            return GDBMIndexCatalog(definitions: try GDBMIndexFormat.decodeCatalog(stored))
        } catch var error as DataStoreError {
            error.message = "the index catalog of \(path) cannot be read: \(error.message)"
            error.path = path
            throw error
        }
    }
}
