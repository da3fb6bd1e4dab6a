/// What a write transaction offers for loading many new items at once: the migration's fast path.
///
/// ``Migration`` uses it for item types the target held none of when the copy began, with items it
/// read from one source type (so no two share an identifier). An engine may then skip per-item
/// existence checks and defer index building and uniqueness checks to ``finishBulkLoad()``.
/// Package API: it never reaches users, and it runs only inside a write block on the scheduler's
/// write queue (``WriteScheduler/bulkWriteSync(_:)``), like every other write.
package protocol BulkLoadWriter: StoreWriter {
    /// Inserts new items, given as rows (validated names, types the store held none of when the
    /// load began).
    ///
    /// - Throws: ``DataStoreError/Code/alreadyExists`` when the engine finds a duplicate now (it may
    ///   also report it in ``finishBulkLoad()``); the engine's errors for items it cannot hold.
    func bulkInsert(_ rows: ArraySlice<ItemRow>) throws

    /// Builds the indexes and runs the checks that ``bulkInsert(_:)`` deferred. Reads through the
    /// transaction are fast again afterwards.
    ///
    /// - Throws: ``DataStoreError/Code/alreadyExists`` when two loaded items share a type and identifier.
    func finishBulkLoad() throws

    /// Whether rolling the transaction back also undoes bulk inserts. A store building a private
    /// file may write them straight through; a dry run must not use such a writer.
    var rollsBackBulkInserts: Bool { get }
}

/// An engine with a write transaction tuned for loading (a larger page cache, deferred indexes).
package protocol BulkLoadingEngine: DataStoreEngine {
    /// Runs `body` in a write transaction as ``DataStoreEngine/write(_:)`` does, with a writer that
    /// can load in bulk.
    func bulkWrite<T>(_ body: (any BulkLoadWriter) throws -> (value: T, commit: Bool)) throws -> T
}

/// A reader that streams items as rows, without a dictionary per item, for ``Migration``.
package protocol RowStreamingReader: StoreReader {
    /// Calls `body` with every item of `types` (of every type when `nil`), as rows, in no particular
    /// order and type after type or interleaved, until it returns `false`.
    func forEachRow(ofTypes types: Set<String>?, _ body: (ItemRow) throws -> Bool) throws

    /// How many items of `types` (of every type when `nil`) the store holds, for progress reports:
    /// the total, and the count of each type when the engine knows it without reading every item.
    func countRows(ofTypes types: Set<String>?) throws -> (total: Int, perType: [String: Int]?)
}
