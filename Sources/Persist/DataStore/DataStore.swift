/// A transactional store of items: the one facade every persistence engine sits behind.
///
/// Reads happen in read blocks that see one consistent committed state; writes happen in write
/// blocks that are serialized, atomic (all of it or none of it) and durable when `writeSync`
/// returns. The same contract holds for ``InMemoryDataStore``, every wrapper of an engine and
/// child stores, and `PersistConformance` proves it for each (see <doc:Contract>).
///
/// ```swift
/// let store: any DataStore = InMemoryDataStore()
/// try store.setup()
/// let id: ItemID = try store.writeSync { accessor in
///     let restaurant = try accessor.createItem(ofType: "Restaurant")
///     restaurant["name"] = "Pizza Place"
///     return restaurant.id
/// }
/// let name = try store.read { accessor in
///     try accessor.item(ofType: "Restaurant", id: id)?["name"]
/// }
/// try store.tearDown()
/// ```
public protocol DataStore: AnyObject, Sendable {
    /// Where the data lives, for messages: a path, `":memory:"`, or a child's parent location.
    var location: String { get }

    /// Opens the store. Call it once before any other operation; calling it on an open store does
    /// nothing, and calling it after ``tearDown()`` opens the store again.
    func setup() throws

    /// Waits for queued writes, then closes the store. Closing never deletes data.
    ///
    /// - Throws: ``DataStoreError/Code/misuse`` when called inside one of the store's own blocks.
    func tearDown() throws

    /// Runs `block` against one consistent committed state and returns its value.
    ///
    /// The block never sees part of a write block. Reads may run at the same time as other reads
    /// and as a write. Inside a read block, ``writeAsync(_:completion:)`` may queue writes, but
    /// ``writeSync(_:)``, ``flush()`` and ``tearDown()`` throw ``DataStoreError/Code/misuse``
    /// (they would wait for the block itself).
    func read<T>(_ block: (DataStoreReadAccessor) throws -> T) throws -> T

    /// Runs `block` as one atomic write transaction and returns its value once the changes are
    /// durable at the store's durability level.
    ///
    /// Writes run one at a time, in the order they were queued with the asynchronous writes.
    /// If the block throws, every change is rolled back and the error is rethrown; if it returns
    /// ``TransactionStatus/rollback``, every change is rolled back without an error.
    ///
    /// - Throws: ``DataStoreError/Code/misuse`` when called inside a write block (or a read block)
    ///   of the same store, instead of deadlocking.
    @discardableResult
    func writeSync<T>(_ block: (DataStoreReadWriteAccessor) throws -> T) throws -> T

    /// Queues `block` as a write transaction that runs off the caller's thread, in FIFO order with
    /// the other writes, and passes its result to `completion`.
    ///
    /// Reads may not see the write until `completion` runs or ``flush()`` returns. Completions
    /// run one at a time, in order, on a queue of the store's own.
    func writeAsync<T: Sendable>(
        _ block: @escaping @Sendable (DataStoreReadWriteAccessor) throws -> T,
        completion: (@Sendable (Result<T, any Error>) -> Void)?
    )

    /// Waits until every write queued before the call has finished and its completion has run.
    /// On a store that is not open it waits for the completions of the writes it refused.
    func flush() throws

    /// Runs `block` against one consistent committed state, off the calling task's thread.
    func read<T: Sendable>(_ block: @escaping @Sendable (DataStoreReadAccessor) throws -> T) async throws -> T

    /// Queues `block` as a write transaction and suspends until it has committed (or rolled back).
    @discardableResult
    func write<T: Sendable>(_ block: @escaping @Sendable (DataStoreReadWriteAccessor) throws -> T) async throws -> T

    /// Makes a child store: reads see this store's committed state overlaid with the child's own
    /// changes; writes stay in the child until ``merge(_:policy:)``. Call `setup()` on the child
    /// before using it. See ``ChildDataStore``, whose ``ChildDataStore/changeCount`` and
    /// ``ChildDataStore/discardChanges()`` the child answers without a cast.
    ///
    /// ```swift
    /// let draft = try store.makeChildDataStore()
    /// try draft.setup()
    /// try draft.writeSync { accessor in _ = try accessor.createItem(ofType: "Draft") }
    /// if draft.changeCount > 0 { try draft.discardChanges() }
    /// ```
    ///
    /// - Throws: ``DataStoreError/Code/misuse`` when this store is not open.
    func makeChildDataStore() throws -> ChildDataStore

    /// Applies every change of `child` to this store in one atomic write, then empties the child,
    /// which can go on being used. Queued asynchronous writes of the child finish first. When the
    /// merge throws, nothing of it is applied and the child keeps its changes.
    ///
    /// - Throws: ``DataStoreError/Code/misuse`` when `child` is not a child of this store, when
    ///   either store is not open, or inside one of the child's blocks;
    ///   ``DataStoreError/Code/conflict`` with policy ``MergePolicy/fail`` and conflicting items;
    ///   ``DataStoreError/Code/uniqueViolation`` when a change would break a unique index of this
    ///   store (it took a value the child gives to an item meanwhile); any error of this store's
    ///   write.
    func merge(_ child: any DataStore, policy: MergePolicy) throws

    /// The indexes of `itemType`: those declared with
    /// ``DataStoreReadWriteAccessor/ensureIndex(ofType:on:unique:)`` and those an adopted
    /// database already had (<doc:Indexes>).
    ///
    /// The default reads them in a read block.
    ///
    /// ```swift
    /// let unique = try store.indexes(ofType: "User").filter(\.isUnique)
    /// ```
    func indexes(ofType itemType: String) throws -> [DataStoreIndex]

    /// The write scheduler that gives the store its contract, or `nil` for a store not built on
    /// one. Through it, ``Migration`` writes in the engine's bulk-load transaction, live queries
    /// (``observe(_:)``) hear of every commit, and a child store shares its parent's generated
    /// identifiers and hears of the parent's commits.
    ///
    /// The default is `nil`; an ``EngineBackedDataStore`` answers its
    /// ``EngineBackedDataStore/scheduler``.
    ///
    /// ```swift
    /// let hearsOfCommits = store.writeScheduler != nil   // live queries refresh after each commit
    /// ```
    var writeScheduler: WriteScheduler? { get }
}

extension DataStore {
    /// Queues a write whose result nobody waits for. Failures are logged by the store.
    ///
    /// ```swift
    /// store.writeAsync { accessor in try accessor.deleteAllItems(ofType: "Draft") }
    /// ```
    public func writeAsync<T: Sendable>(_ block: @escaping @Sendable (DataStoreReadWriteAccessor) throws -> T) {
        writeAsync(block, completion: nil)
    }

    /// Merges `child` with the default policy, ``MergePolicy/childWins``.
    public func merge(_ child: any DataStore) throws {
        try merge(child, policy: .childWins)
    }

    /// The indexes of `itemType`, read in a read block.
    ///
    /// ```swift
    /// for index in try store.indexes(ofType: "User") where index.isUnique {
    ///     print("unique:", index.attributes)
    /// }
    /// ```
    public func indexes(ofType itemType: String) throws -> [DataStoreIndex] {
        try read { accessor in try accessor.indexes(ofType: itemType) }
    }

    /// `nil`: a store of its own making has no write scheduler.
    public var writeScheduler: WriteScheduler? { nil }
}
