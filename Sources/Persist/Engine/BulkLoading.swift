/// What a write transaction offers for loading many new items at once: the fast path of
/// ``Migration`` into the store.
///
/// ``Migration`` uses it for item types the target held none of when the copy began, with items it
/// read from one source type (so no two share an identifier, unless a transform merges types). A
/// writer may then skip per-item existence checks and defer index building and uniqueness checks
/// to ``finishBulkLoad()``. It runs only inside a write block, on the store's write queue, like
/// every other write.
///
/// A writer opts in by conforming: ``StoreWriter/bulkLoader`` then answers the writer itself, and
/// a migration into the store loads through it, in the engine's ``BulkLoadingEngine/bulkWrite(_:)``
/// transaction when the engine has one and in its ``DataStoreEngine/write(_:)`` otherwise.
///
/// ```swift
/// extension MyWriter: BulkLoadWriter {
///     func bulkInsert(_ rows: ArraySlice<ItemRow>) throws {
///         for row in rows { try save(row.item) }   // the rows are new: no check first
///     }
///     func finishBulkLoad() throws {}
///     var rollsBackBulkInserts: Bool { true }
/// }
/// ```
public protocol BulkLoadWriter: StoreWriter {
    /// Inserts new items, given as rows with valid names, of types the store held none of when the
    /// load began.
    ///
    /// ```swift
    /// try writer.bulkLoader?.bulkInsert([ItemRow(item)])
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/alreadyExists`` when the engine finds a duplicate now (it may
    ///   also report it in ``finishBulkLoad()``); the engine's errors for items it cannot hold.
    func bulkInsert(_ rows: ArraySlice<ItemRow>) throws

    /// Builds the indexes and runs the checks that ``bulkInsert(_:)`` deferred. Reads through the
    /// transaction are fast again afterwards. A migration calls it before it reads what it loaded
    /// and before the block commits.
    ///
    /// ```swift
    /// try writer.bulkLoader?.finishBulkLoad()
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/alreadyExists`` when two loaded items share a type and identifier.
    func finishBulkLoad() throws

    /// Whether rolling the transaction back also undoes bulk inserts. A store building a private
    /// file may write them straight through; a dry run then loads item by item instead.
    ///
    /// ```swift
    /// let dryRunsLoadInBulk = writer.bulkLoader?.rollsBackBulkInserts == true
    /// ```
    var rollsBackBulkInserts: Bool { get }
}

extension BulkLoadWriter {
    /// The writer itself: conforming to ``BulkLoadWriter`` is opting in.
    public var bulkLoader: (any BulkLoadWriter)? { self }
}

/// An engine with a write transaction tuned for loading (a larger page cache, deferred indexes),
/// which ``Migration`` writes into the store in.
///
/// An engine opts in by conforming: ``DataStoreEngine/bulkLoading`` then answers the engine
/// itself. An engine whose ordinary write transaction loads well enough needs only a writer that
/// conforms to ``BulkLoadWriter``.
///
/// ```swift
/// extension MyEngine: BulkLoadingEngine {
///     func bulkWrite<T>(_ body: (any BulkLoadWriter) throws -> (value: T, commit: Bool)) throws -> T { … }
/// }
/// ```
public protocol BulkLoadingEngine: DataStoreEngine {
    /// Runs `body` in a write transaction as ``DataStoreEngine/write(_:)`` does, with a writer that
    /// can load in bulk.
    ///
    /// ```swift
    /// func bulkWrite<T>(_ body: (any BulkLoadWriter) throws -> (value: T, commit: Bool)) throws -> T { … }
    /// ```
    func bulkWrite<T>(_ body: (any BulkLoadWriter) throws -> (value: T, commit: Bool)) throws -> T
}

extension BulkLoadingEngine {
    /// The engine itself: conforming to ``BulkLoadingEngine`` is opting in.
    public var bulkLoading: (any BulkLoadingEngine)? { self }
}

/// A reader that streams items as rows, without a dictionary per item, for ``Migration``: from a
/// source store, and to verify what was loaded into a target.
///
/// A reader opts in by conforming: ``StoreReader/rowStreaming`` then answers the reader itself.
///
/// ```swift
/// extension MyReader: RowStreamingReader {
///     func forEachRow(ofTypes types: Set<String>?, _ body: (ItemRow) throws -> Bool) throws { … }
///     func countRows(ofTypes types: Set<String>?) throws -> (total: Int, perType: [String: Int]?) { … }
/// }
/// ```
public protocol RowStreamingReader: StoreReader {
    /// Calls `body` with every item of `types` (of every type when `nil`), as rows, in no particular
    /// order and type after type or interleaved, until it returns `false`.
    ///
    /// ```swift
    /// try reader.rowStreaming?.forEachRow(ofTypes: ["Note"]) { row in
    ///     print(row.id, row.names.names)
    ///     return true
    /// }
    /// ```
    func forEachRow(ofTypes types: Set<String>?, _ body: (ItemRow) throws -> Bool) throws

    /// How many items of `types` (of every type when `nil`) the store holds, for progress reports:
    /// the total, and the count of each type when the engine knows it without reading every item.
    ///
    /// ```swift
    /// let counted = try reader.rowStreaming?.countRows(ofTypes: nil)
    /// print(counted?.total ?? 0)
    /// ```
    func countRows(ofTypes types: Set<String>?) throws -> (total: Int, perType: [String: Int]?)
}

extension RowStreamingReader {
    /// The reader itself: conforming to ``RowStreamingReader`` is opting in.
    public var rowStreaming: (any RowStreamingReader)? { self }
}
