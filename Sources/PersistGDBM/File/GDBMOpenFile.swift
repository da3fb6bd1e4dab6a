import Foundation
import Logging
import Persist

/// One open GDBM file: the handle, the layout, the journal and the snapshot lock, and the commit
/// protocol that makes write blocks atomic.
///
/// A commit buffers nothing in GDBM until it is safe: the block's changes are written to the
/// checksummed journal (and synced for `Durability.full`), then applied with `gdbm_store` and
/// `gdbm_delete` while no read block runs, then (for `Durability.full`) `gdbm_sync`ed, and the
/// journal is emptied. Opening the file again replays a complete journal and discards a torn one
/// (see `GDBMOpenFile+Open.swift`).
final class GDBMOpenFile: @unchecked Sendable {
    // @unchecked Sendable: `journal` is used only on the scheduler's serial write queue; the rest is immutable or `Locked`.
    let path: String
    /// The file `path` leads to (through symbolic links), and its device and inode when opened.
    private let filePath: String
    /// `path` made absolute when the file was opened (symbolic links kept), which a later change
    /// of the working directory does not redirect.
    let absolutePath: String
    /// The device and inode of the file the store writes: the one it opened, or the file legacy
    /// code rebuilt through ``withRawHandle(_:)`` (`gdbm_reorganize`) and the handle now has open.
    var identity: FileIdentity? { state.withLock { $0.identity } }
    let options: GDBMDataStore.Options
    /// A new file that only this store uses and that is thrown away if the work fails
    /// (``GDBMDataStore/buildingPrivateFile(at:options:)``): no journal, bulk loads written at once.
    let buildsPrivateFile: Bool
    let codec: GDBMLayoutCodec
    let handle: GDBMHandle
    let snapshot: SnapshotLock
    private let claim: OpenFileRegistry.Claim
    private let journal: GDBMJournal?

    private struct State {
        /// See ``GDBMOpenFile/identity``.
        var identity: FileIdentity?
        /// Set when a commit failed half-way: the store refuses further work until reopened.
        var failure: DataStoreError?
        /// The native layout's format record must be written with the next commit (adopted empty file).
        var needsFormatRecord = false
        /// The version the file's format record names.
        var formatVersion: UInt64 = 1
        /// The file's indexes, as committed.
        var catalog = GDBMIndexCatalog()
        /// The file's relations, as committed: read from the relation record when the file is
        /// opened and replaced by each commit that declares one, the only ways the record changes
        /// while the store holds the file.
        var relations: [DataStoreRelation] = []
        /// For each item type asked about: an upper bound of its integer identifiers (`nil` when it
        /// has none), kept up to date by every commit while the store holds the file's write lock.
        var integerIDBounds: [String: IntegerIDBound] = [:]
        /// For each item type: the largest integer identifier a committed block of this store wrote,
        /// which a new identifier stays above even once that item is deleted.
        var largestWrittenIntegerIDs: [String: Int64] = [:]
    }

    /// The largest integer identifier a type may hold, as far as this store knows.
    struct IntegerIDBound: Sendable {
        let largest: Int64?
    }

    private let state = Locked(State())

    var logger: Logger { options.logger }

    /// - Parameters:
    ///   - path: the path the store was given, for messages.
    ///   - filePath: the same file with symbolic links resolved, beside which the journal lives.
    init(path: String, filePath: String, options: GDBMDataStore.Options, buildsPrivateFile: Bool, codec: GDBMLayoutCodec,
         handle: GDBMHandle, claim: OpenFileRegistry.Claim, needsFormatRecord: Bool, formatVersion: UInt64,
         catalog: GDBMIndexCatalog, relations: [DataStoreRelation]) {
        self.path = path
        self.filePath = filePath
        absolutePath = LiteralPath.absolute(path)
        self.options = options
        self.buildsPrivateFile = buildsPrivateFile
        self.codec = codec
        self.handle = handle
        self.claim = claim
        snapshot = SnapshotLock(location: path)
        journal = options.readOnly || buildsPrivateFile
            ? nil : GDBMJournal(databasePath: filePath, durability: options.durability)
        state.withLock { state in
            state.identity = FileIdentity.existing(filePath)
            state.needsFormatRecord = needsFormatRecord
            state.formatVersion = formatVersion
            state.catalog = catalog
            state.relations = relations
        }
    }

    /// The committed index catalog.
    var catalog: GDBMIndexCatalog { state.withLock { $0.catalog } }

    /// The committed relations, in the order they were declared.
    var relations: [DataStoreRelation] { state.withLock { $0.relations } }

    /// The known upper bound of `itemType`'s integer identifiers, if one is known.
    func integerIDBound(ofType itemType: String) -> IntegerIDBound? {
        state.withLock { $0.integerIDBounds[itemType] }
    }

    /// The largest integer identifier of `itemType` a committed block of this store wrote, if any.
    func largestWrittenIntegerID(ofType itemType: String) -> Int64? {
        state.withLock { $0.largestWrittenIntegerIDs[itemType] }
    }

    /// Remembers an upper bound of `itemType`'s integer identifiers.
    func rememberIntegerIDBound(_ bound: IntegerIDBound, ofType itemType: String) {
        state.withLock { $0.integerIDBounds[itemType] = bound }
    }

    // MARK: Checks

    /// Throws when an earlier commit failed half-way.
    func checkUsable() throws {
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Throws `DataStoreError.Code.readOnly` for a read-only store.
    func checkWritable() throws {
        if options.readOnly {
            throw DataStoreError(.readOnly, "the store at \(path) was opened read-only; open it without readOnly to change it",
                                 path: path)
        }
    }

    /// Marks the store failed and logs it; see ``markFailed(after:)``.
    private func fail(after error: any Error) -> DataStoreError {
        let failure = markFailed(after: error)
        logger.error("commit failed half-way; the store needs reopening", metadata: ["store": .string(path)])
        return failure
    }

    /// Marks the store failed after a commit's `error`, once: returns the failure every later call
    /// meets (the first one, when the store had already failed).
    private func markFailed(after error: any Error) -> DataStoreError {
        let underlying = error as? DataStoreError ?? DataStoreError(.io, "\(error)", path: path)
        var failure = underlying
        let journalPath = journal?.path ?? GDBMJournal.path(forDatabase: path)
        failure.message = "a commit to \(path) failed half-way (\(underlying.message)). The block is not rolled back: "
            + "the journal \(journalPath) holds all of it, and the next setup() of a store on the file applies it "
            + "whole, so do not repeat it. Until then this store refuses reads and writes, so that no one sees a part "
            + "of the block: tear it down, fix the cause, and set it up again (the replay builds a copy of the file "
            + "beside it, so it needs free space for one more copy of the file)"
        failure.path = path
        return state.withLock { state in
            if let earlier = state.failure { return earlier }
            state.failure = failure
            return failure
        }
    }

    /// Rethrows decoding errors of the record under `key` with the file's path and the item.
    func decoding<R>(key: UnsafeRawBufferPointer, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as DataStoreError where error.path == nil {
            throw describe(error, reference: codec.reference(ofKey: key), key: key)
        }
    }

    /// Rethrows decoding errors of the record of `reference` with the file's path and the item.
    func decoding<R>(reference: ItemReference, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as DataStoreError where error.path == nil {
            throw describe(error, reference: reference, key: nil)
        }
    }

    private func describe(_ error: DataStoreError, reference: ItemReference?, key: UnsafeRawBufferPointer?) -> DataStoreError {
        var described = error
        let subject = reference.map { "the record of \($0)" } ?? key.map { "the record under the key \(NativeKeyCodec.describe($0))" }
            ?? "a record"
        let advice = error.code == .unsupported
            ? "It was written by a newer version of Persist; open the file with that version"
            : "The file was changed by something other than this store, or is damaged; restore it from a backup, "
                + "or open it with layout .raw to see its bytes"
        described.message = "\(subject) in \(path) cannot be read: \(error.message). \(advice)"
        described.path = path
        if let reference { described.items = [reference] }
        return described
    }

    // MARK: Blocks

    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        try checkUsable()
        return try snapshot.withShared {
            try checkUsable()
            return try body(GDBMReader(openFile: self))
        }
    }

    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T {
        try checkUsable()
        let writer = GDBMWriter(openFile: self, catalog: catalog)
        let (value, commit) = try body(writer)
        if commit {
            try self.commit(writer.changes, indexEntries: try writer.indexJournalEntries(), catalog: writer.changedCatalog,
                            relations: writer.changedRelations)
            recordIntegerIDs(writer.writtenIntegerIDs)
        }
        return value
    }

    /// Raises the largest written and the known integer identifier bounds by the identifiers a
    /// committed block wrote.
    private func recordIntegerIDs(_ written: [String: Int64]) {
        guard !written.isEmpty else { return }
        state.withLock { state in
            for (itemType, largest) in written {
                state.largestWrittenIntegerIDs[itemType] = max(state.largestWrittenIntegerIDs[itemType] ?? largest, largest)
                guard let bound = state.integerIDBounds[itemType] else { continue }
                state.integerIDBounds[itemType] = IntegerIDBound(largest: max(bound.largest ?? largest, largest))
            }
        }
    }

    /// Journals, applies and syncs one block's changes, with the index entries they change, the
    /// new catalog when the block declared an index and the new relation record when it declared
    /// a relation (and the format record, when they raise the file's version). A private file
    /// being built has no journal: there is nothing to protect, and the changes are applied directly.
    private func commit(_ changes: [[UInt8]: GDBMWriter.Change], indexEntries: [GDBMJournalEntry],
                        catalog newCatalog: GDBMIndexCatalog?, relations newRelations: [DataStoreRelation]?) throws {
        guard !changes.isEmpty || !indexEntries.isEmpty || newCatalog != nil || newRelations != nil, !options.readOnly
        else { return }
        var entries = Self.entries(changes) + indexEntries
        let (needsFormatRecord, version) = state.withLock { ($0.needsFormatRecord, $0.formatVersion) }
        var newVersion = version
        if newCatalog != nil { newVersion = max(newVersion, GDBMStorageFormat.indexedFormatVersion) }
        if newRelations != nil { newVersion = max(newVersion, GDBMStorageFormat.relationFormatVersion) }
        let raisesVersion = newVersion > version
        if let newCatalog {
            entries.append(.store(key: GDBMIndexFormat.catalogKey, value: GDBMIndexFormat.encodeCatalog(newCatalog.definitions)))
        }
        if let newRelations {
            entries.append(.store(key: GDBMRelationFormat.key, value: GDBMRelationFormat.encode(newRelations)))
        }
        if needsFormatRecord || raisesVersion {
            entries.append(.store(key: GDBMStorageFormat.metadataKey, value: GDBMStorageFormat.metadataValue(version: newVersion)))
        }
        // Checked before the journal: an entry GDBM refuses would fail every replay of it too.
        for entry in entries {
            try GDBMStorageFormat.checkDatumSize(entry.key.count, path: path)
            if case .store(_, let value) = entry { try GDBMStorageFormat.checkDatumSize(value.count, path: path) }
        }
        try checkStillInPlace()
        try journal?.write(entries)
        do {
            // The store is marked failed before the exclusive side is given up: a read block waiting
            // for it must meet that failure, never the part of the block GDBM managed to write.
            try snapshot.withExclusive {
                do { try handle.apply(entries) } catch { throw markFailed(after: error) }
            }
            if options.durability == .full { try handle.sync() }
        } catch {
            throw fail(after: error)
        }
        state.withLock { state in
            state.needsFormatRecord = false
            state.formatVersion = newVersion
            if let newCatalog { state.catalog = newCatalog }
            if let newRelations { state.relations = newRelations }
        }
        if needsFormatRecord {
            logger.debug("wrote the native format record into the adopted empty file", metadata: ["store": .string(path)])
        }
        do {
            try journal?.clear()
        } catch {
            // The block is applied and durable; only a later replay of it (which is harmless) is
            // at stake, but stop so that nothing can interleave with that replay.
            _ = fail(after: error)
        }
    }

    /// Throws `notFound` when the store's path no longer names the file it opened.
    ///
    /// The store's own path is checked, as live queries and the SQLite store check theirs: a
    /// symbolic link that now leads to another file no longer names the file the store writes.
    private func checkStillInPlace() throws {
        guard let identity, !buildsPrivateFile else { return }
        try identity.checkStillAt(absolutePath, file: "the GDBM file", location: path)
    }

    private static func entries(_ changes: [[UInt8]: GDBMWriter.Change]) -> [GDBMJournalEntry] {
        changes.map { key, change in
            switch change {
            case .put(let record): .store(key: key, value: record)
            case .delete: .delete(key: key)
            }
        }
    }

    /// Stores new records directly, while no read block runs (a bulk load into a private file).
    ///
    /// - Throws: `alreadyExists` naming the item of the first key already stored.
    func storeNew(_ records: [(key: [UInt8], record: [UInt8], reference: ItemReference)]) throws {
        try checkWritable()
        try snapshot.withExclusive {
            for entry in records {
                let stored = try entry.key.withUnsafeBytes { key in
                    try entry.record.withUnsafeBytes { record in try handle.insert(key, record) }
                }
                if !stored {
                    throw DataStoreError(.alreadyExists, "\(entry.reference) already exists in \(path)", path: path,
                                         items: [entry.reference])
                }
            }
        }
    }

    /// Runs legacy code on the raw handle while no read block or commit runs.
    func withRawHandle<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
        try checkUsable()
        defer {
            // Legacy code may add items with any identifier, and may have rebuilt the file
            // (`gdbm_reorganize`, `gdbm_recover`), which renames a new file over the path and leaves
            // the handle on it: that file is the store's from now on.
            let rebuilt = handle.openedFileIdentity().flatMap { FileIdentity.existing(filePath) == $0 ? $0 : nil }
            state.withLock { state in
                state.integerIDBounds.removeAll()
                if let rebuilt { state.identity = rebuilt }
            }
        }
        return try snapshot.withExclusive { try handle.withFile(body) }
    }

    /// Closes the journal (removing it when empty and the file is still in place) and the file, and
    /// gives the file up to other stores in this process (even if an escaped accessor still refers
    /// to this open file).
    func close() throws {
        defer { claim.release() }
        // The journal beside the file is this store's while the file is still where it opened it.
        journal?.close(removingEmptyFile: identity.map { FileIdentity.existing(filePath) == $0 } ?? true)
        try handle.close()
    }
}
