internal import CGDBM
import Foundation
import Logging
import Persist

/// A `DataStore` on a GNU dbm file, with the whole contract: atomic, journaled write blocks,
/// snapshot reads, typed entities, and files written by other programs.
///
/// GDBM is a plain key/value file with no transactions and one-writer-or-many-readers locking;
/// the store adds what it lacks. A write block's changes are buffered, written to a checksummed
/// journal beside the file, applied, and the journal emptied; opening the file replays a complete
/// journal and discards a torn one, so a crash at any moment leaves every block whole or absent.
/// See <doc:GDBMStore> for options, layouts, durability, locking, recovery and the escape hatch,
/// and <doc:GDBMFileFormat> for the bytes.
///
/// ```swift
/// let store = GDBMDataStore(path: "/var/lib/app/restaurants.gdbm")
/// try store.setup()
/// try store.writeSync { accessor in
///     let restaurant = try accessor.createItem(ofType: "Restaurant")
///     restaurant["name"] = "Pizza Place"
/// }
/// let count = try store.read { accessor in
///     try accessor.countItems(forRequest: DataStoreRequest(itemType: "Restaurant"))
/// }
/// try store.tearDown()
/// ```
public final class GDBMDataStore: EngineBackedDataStore {
    /// The scheduler every `DataStore` operation forwards to.
    public let scheduler: WriteScheduler
    /// The database file.
    public let path: String
    /// How the file is opened.
    public let options: Options
    private let engine: GDBMEngine

    /// Makes a store for the GDBM file at `path`. Nothing is opened until `setup()`.
    ///
    /// - Parameters:
    ///   - path: the database file; its journal lives beside it as `<path>-journal`.
    ///   - options: durability, read-only, creation, layout, lock wait and logger.
    public init(path: String, options: Options = Options()) {
        self.path = path
        self.options = options
        engine = GDBMEngine(path: path, options: options)
        scheduler = WriteScheduler(engine: engine, logger: options.logger)
    }

    private init(path: String, options: Options, buildsPrivateFile: Bool) {
        self.path = path
        self.options = options
        engine = GDBMEngine(path: path, options: options, buildsPrivateFile: buildsPrivateFile)
        scheduler = WriteScheduler(engine: engine, logger: options.logger)
    }

    /// A store that builds a new file at `path` that only it uses until it is closed, and that the
    /// caller throws away if the work fails (`persist-migrate`'s staging file): commits are
    /// applied without the journal, and bulk loads write straight through. A crash leaves a file
    /// to discard, so the caller, not the store, keeps the data safe: no ``Options`` value gives this.
    package static func buildingPrivateFile(at path: String, options: Options) -> GDBMDataStore {
        GDBMDataStore(path: path, options: options, buildsPrivateFile: true)
    }

    /// The C handle the escape hatch hands out: GDBM's `GDBM_FILE`.
    public typealias RawHandle = OpaquePointer

    /// Runs legacy code on the store's own GDBM handle, serialized with every write block and
    /// with no read block running, so call sites not yet moved to the store keep working on the
    /// same file (which GDBM's lock would not let them open a second time).
    ///
    /// Rules: do not close the handle and do not keep it after `body` returns; do not use the
    /// store from inside `body` (that throws `DataStoreError.Code.misuse`). Writes made here
    /// bypass the journal, so they are neither atomic nor protected against crashes; in the
    /// native layout they must follow <doc:GDBMFileFormat> (``GDBMStorageFormat`` encodes
    /// keys and records), or the store reports the records as corrupt.
    ///
    /// ```swift
    /// import CGDBM   // your system-library target on gdbm.h
    ///
    /// let hits = try store.withRawHandle { handle -> Int32 in
    ///     var key: [CChar] = Array("hits".utf8CString.dropLast())
    ///     return key.withUnsafeMutableBufferPointer { buffer in
    ///         gdbm_exists(handle, datum(dptr: buffer.baseAddress, dsize: Int32(buffer.count)))
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: `DataStoreError.Code.misuse` inside a read or write block of this store or
    ///   when the store is not set up; whatever `body` throws.
    public func withRawHandle<T>(_ body: (RawHandle) throws -> T) throws -> T {
        try scheduler.performExclusive(named: "withRawHandle") {
            try engine.withRawHandle(body)
        }
    }

    /// Rebuilds a damaged GDBM file (for example one that gives `GDBM_NEED_RECOVERY`) with GDBM's
    /// `gdbm_recover`: every record that can still be read is copied into a new file that takes
    /// the old one's place. Never done automatically for a file the store did not damage itself.
    ///
    /// The file must not be open anywhere else (not even read-only). The indexes a native file
    /// declares are then rebuilt from the recovered items, in one journaled block.
    ///
    /// ```swift
    /// do {
    ///     try store.setup()
    /// } catch let error as DataStoreError where error.code == .corrupt {
    ///     let report = try GDBMDataStore.recover(path: store.path)
    ///     print("recovered \(report.recoveredKeys) records; original kept at \(report.backupPath ?? "-")")
    ///     try store.setup()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - path: the damaged file.
    ///   - keepBackup: keep the original, renamed to `<path>.~N~` (GDBM's naming), in case
    ///     something recoverable was lost.
    ///   - logger: where the recovery is logged.
    /// - Returns: GDBM's counts of recovered and lost records.
    /// - Throws: `DataStoreError.Code.notFound` for a missing file, `DataStoreError.Code.invalidArgument`
    ///   for a directory or another file that is not a regular one, `DataStoreError.Code.locked`
    ///   when the file is open elsewhere, `DataStoreError.Code.corrupt` when it is not a GDBM file
    ///   (an empty file included), `DataStoreError.Code.io` without room for the rebuilt copy.
    @discardableResult
    public static func recover(path: String, keepBackup: Bool = true,
                               logger: Logger = Logger(label: "persist.gdbm", factory: { _ in SwiftLogNoOpLogHandler() }))
        throws -> GDBMRecoveryReport
    {
        var (report, hasIndexes) = try recoverRecords(path: path, keepBackup: keepBackup)
        logger.notice("recovered GDBM file",
                      metadata: ["store": .string(path), "recovered": .stringConvertible(report.recoveredKeys),
                                 "failed": .stringConvertible(report.failedKeys),
                                 "backup": .string(report.backupPath ?? "none")])
        if report.lostRelationRecord {
            logger.warning("the relation record of the recovered GDBM file was lost: it declares no relation any more; declare them again",
                           metadata: ["store": .string(path)])
        }
        if hasIndexes {
            // The recovered file is in place already: a failure here leaves its indexes as GDBM
            // recovered them, and is reported beside the records saved rather than instead of them.
            do {
                try rebuildIndexes(path: path, logger: logger)
            } catch {
                logger.warning("the indexes of the recovered GDBM file were not rebuilt: \(error)",
                               metadata: ["store": .string(path)])
                report.indexError = (error as? DataStoreError)?.message ?? String(describing: error)
                return report
            }
        }
        return report
    }

    /// GDBM's recovery, with the file claimed; whether the file declares indexes.
    private static func recoverRecords(path: String, keepBackup: Bool) throws -> (GDBMRecoveryReport, hasIndexes: Bool) {
        guard let claim = OpenFileRegistry.claim(path, writer: true) else {
            throw DataStoreError(.locked,
                                 "the GDBM file at \(path) is open in this process; tear its store down before recovering it",
                                 path: path)
        }
        defer { withExtendedLifetime(claim) {} }
        try ExistingFile.check(path, action: "recover", done: "recovered")
        // GDBM renames files by the name it was given; work on the file a symbolic link leads to.
        let handle: GDBMHandle
        do {
            handle = try GDBMHandle.open(path: OpenFileRegistry.canonicalPath(path), access: .writer)
        } catch let error as DataStoreError where error.code == .locked {
            throw DataStoreError(.locked, "the GDBM file at \(path) is open in another process; close it there before "
                                    + "recovering it (GDBM said: \(error.engineMessage ?? "locked"))",
                                 path: path, engineCode: error.engineCode, engineMessage: error.engineMessage)
        }
        var report: GDBMRecoveryReport
        let hasIndexes: Bool
        do {
            report = try handle.recover(force: true, keepBackup: keepBackup)
            hasIndexes = try GDBMIndexFormat.catalogKey.withUnsafeBytes { key in try handle.fetch(key) { _ in true } } ?? false
            // A file of format version 3 or more declared a relation: its record is never removed.
            let version = try GDBMStorageFormat.metadataKey.withUnsafeBytes { key in
                try handle.fetch(key) { try? GDBMStorageFormat.decodeMetadataValue([UInt8]($0)) }
            }
            let hasRelations = try GDBMRelationFormat.key.withUnsafeBytes { key in try handle.fetch(key) { _ in true } } ?? false
            report.lostRelationRecord = (version ?? nil).map { $0 >= GDBMStorageFormat.relationFormatVersion } == true
                && !hasRelations
        } catch {
            try? handle.close()
            throw error
        }
        try handle.close()
        return (report, hasIndexes)
    }

    /// Rebuilds the entries of a recovered native file's indexes from its items, in one journaled
    /// block: GDBM's recovery may have lost an entry, or an item an entry names.
    private static func rebuildIndexes(path: String, logger: Logger) throws {
        let engine = GDBMEngine(path: path, options: Options(logger: logger))
        try engine.open()
        let broken: [DataStoreIndex]
        do {
            broken = try engine.write { writer in
                guard let writer = writer as? GDBMWriter else { return ([], false) }
                return (try writer.rebuildIndexes(), true)
            }
        } catch {
            try? engine.close()
            throw error
        }
        try engine.close()
        logger.notice("rebuilt the indexes of the recovered GDBM file", metadata: ["store": .string(path)])
        for index in broken {
            logger.warning("after recovery, items of the GDBM file share values of the \(index)",
                           metadata: ["store": .string(path)])
        }
    }

    /// The files the store keeps beside a GDBM file, as suffixes of its path: the journal.
    package static let companionSuffixes = ["-journal"]

    /// Deletes a store's files: the database and its journal (beside the file a symbolic link
    /// leads to, which is what is deleted). Closing a store never does this.
    ///
    /// ```swift
    /// try store.tearDown()
    /// try GDBMDataStore.deleteFiles(atPath: store.path)
    /// ```
    ///
    /// - Throws: `DataStoreError.Code.locked` when a store in this process, or another process,
    ///   has the file open (GDBM's lock says so); `DataStoreError.Code.io` when a file cannot be
    ///   removed. A missing file is not an error, nor is a damaged one.
    public static func deleteFiles(atPath path: String) throws {
        guard let claim = OpenFileRegistry.claim(path, writer: true) else {
            throw DataStoreError(.locked, "the GDBM file at \(path) is open in this process; tear its store down first",
                                 path: path)
        }
        defer { withExtendedLifetime(claim) {} }
        let filePath = OpenFileRegistry.canonicalPath(path)
        // Holding the writer's lock while deleting: another process's open handle would go on
        // writing to a file no path leads to, and lose every commit.
        var lock: GDBMHandle?
        do {
            if FileManager.default.fileExists(atPath: filePath) { lock = try GDBMHandle.open(path: filePath, access: .writer) }
        } catch let error as DataStoreError where error.code == .locked {
            throw DataStoreError(.locked, "the GDBM file at \(path) is open in another process; close it there first",
                                 path: path, engineCode: error.engineCode, engineMessage: error.engineMessage)
        } catch {
            // A damaged file cannot be opened, and may still be deleted.
        }
        defer { try? lock?.close() }
        for file in [filePath, GDBMJournal.path(forDatabase: filePath)] where unlink(file) != 0 && errno != ENOENT {
            let code = errno
            throw DataStoreError(.io, "could not delete \(file): \(GDBMErrors.systemText(code))", path: file,
                                 engineCode: Int(code), engineMessage: GDBMErrors.systemText(code))
        }
    }
}
