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
    // @unchecked Sendable: `journal` is used only by commits, which the scheduler runs one at a time
    // on its write queue, and by `close`, which the scheduler calls on the same queue after every read
    // has finished; every other stored property is immutable or guarded by its own lock.
    let path: String
    let options: GDBMDataStore.Options
    let codec: GDBMLayoutCodec
    let handle: GDBMHandle
    let snapshot: SnapshotLock
    private let claim: OpenFileRegistry.Claim
    private let journal: GDBMJournal?

    private struct State {
        /// Set when a commit failed half-way: the store refuses further work until reopened.
        var failure: DataStoreError?
        /// The native layout's format record must be written with the next commit (adopted empty file).
        var needsFormatRecord = false
    }

    private let state = Locked(State())

    var logger: Logger { options.logger }

    /// - Parameters:
    ///   - path: the path the store was given, for messages.
    ///   - filePath: the same file with symbolic links resolved, beside which the journal lives.
    init(path: String, filePath: String, options: GDBMDataStore.Options, codec: GDBMLayoutCodec, handle: GDBMHandle,
         claim: OpenFileRegistry.Claim, needsFormatRecord: Bool) {
        self.path = path
        self.options = options
        self.codec = codec
        self.handle = handle
        self.claim = claim
        snapshot = SnapshotLock(location: path)
        journal = options.readOnly || options.buildsPrivateFile
            ? nil : GDBMJournal(databasePath: filePath, durability: options.durability)
        state.withLock { $0.needsFormatRecord = needsFormatRecord }
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

    private func fail(after error: any Error) -> DataStoreError {
        let underlying = error as? DataStoreError ?? DataStoreError(.io, "\(error)", path: path)
        var failure = underlying
        failure.message = "a commit to \(path) failed half-way (\(underlying.message)); the store stopped so that no one "
            + "sees a partial block. Tear it down and set it up again: opening replays the journal "
            + (journal?.path ?? GDBMJournal.path(forDatabase: path))
        failure.path = path
        state.withLock { if $0.failure == nil { $0.failure = failure } }
        logger.error("commit failed half-way; the store needs reopening", metadata: ["store": .string(path)])
        return failure
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
        let writer = GDBMWriter(openFile: self)
        let (value, commit) = try body(writer)
        if commit { try self.commit(writer.changes) }
        return value
    }

    /// Journals, applies and syncs one block's changes.
    private func commit(_ changes: [[UInt8]: GDBMWriter.Change]) throws {
        guard !changes.isEmpty, !options.readOnly else { return }
        guard let journal else {
            // A private file being built: nothing to protect, apply directly.
            try snapshot.withExclusive { try handle.apply(Self.entries(changes)) }
            return
        }
        var entries = Self.entries(changes)
        let needsFormatRecord = state.withLock { $0.needsFormatRecord }
        if needsFormatRecord {
            entries.append(.store(key: GDBMStorageFormat.metadataKey, value: GDBMStorageFormat.metadataValue))
        }
        try journal.write(entries)
        do {
            try snapshot.withExclusive { try handle.apply(entries) }
            if options.durability == .full { try handle.sync() }
        } catch {
            throw fail(after: error)
        }
        if needsFormatRecord {
            state.withLock { $0.needsFormatRecord = false }
            logger.debug("wrote the native format record into the adopted empty file", metadata: ["store": .string(path)])
        }
        do {
            try journal.clear()
        } catch {
            // The block is applied and durable; only a later replay of it (which is harmless) is
            // at stake, but stop so that nothing can interleave with that replay.
            _ = fail(after: error)
        }
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
        return try snapshot.withExclusive { try handle.withFile(body) }
    }

    /// Closes the journal (removing it when empty) and the file, and gives the file up to other
    /// stores in this process (even if an escaped accessor still refers to this open file).
    func close() throws {
        defer { claim.release() }
        journal?.close()
        try handle.close()
    }
}
