import Logging

/// A store for scratch edits: reads see the parent's committed state overlaid with the child's own
/// changes; writes stay in the child until the parent merges them, in one atomic write.
///
/// ```swift
/// let basket = try store.makeChildDataStore()
/// try basket.setup()
/// try basket.writeSync { accessor in
///     let line = try accessor.createItem(ofType: "BasketLine")
///     line["product"] = "Margherita"
///     line["extras"] = ["olives"]
/// }
/// if userConfirmed {
///     try store.merge(basket)          // everything, atomically
/// }                                     // otherwise just drop `basket`
/// ```
///
/// A child is a full ``DataStore``: requests, typed entities, `writeAsync`, `async` variants and
/// children of its own all work, with exactly the parent's request semantics. It holds only its
/// changes and, for each changed item, the parent's version when the child first changed it — never
/// a copy of the parent. As in JustPersist, call ``setup()`` on a new child before using it;
/// ``tearDown()`` closes it without touching the parent, and a child dropped without a merge simply
/// vanishes with its changes.
///
/// Conflicts: an item the child changed whose parent version has changed since (including deleted
/// on one side and changed on the other) is resolved by the ``MergePolicy`` given to
/// ``DataStore/merge(_:policy:)``.
///
/// Inside a write block (or escape hatch) of its parent, a child's `writeSync`, `flush()`,
/// `setup()`, `tearDown()` and `discardChanges()` throw ``DataStoreError/Code/misuse``: a merge
/// running at the same time would wait for both. Reads and `writeAsync` are allowed there.
public final class ChildDataStore: EngineBackedDataStore {
    /// The scheduler that gives the store the whole ``DataStore`` contract.
    public let scheduler: WriteScheduler
    /// The store this child reads from and merges into.
    public let parent: any DataStore
    let engine: ChildEngine

    init(parent: any DataStore, logger: Logger) {
        self.parent = parent
        let parentScheduler = parent.writeScheduler
        let reservations = parentScheduler?.reservations ?? IDReservations()
        engine = ChildEngine(parent: parent, reservations: reservations)
        scheduler = WriteScheduler(engine: engine, logger: logger, reservations: reservations, parent: parentScheduler)
        if let parentCenter = parentScheduler?.observations {
            // While the child has live queries, the parent's commits refresh them too.
            scheduler.observations.setUpstream { deliver in
                let token = parentCenter.subscribe(deliver)
                return { parentCenter.unsubscribe(token) }
            }
        }
    }

    /// How many items the child has inserted, changed or deleted and not yet merged.
    public var changeCount: Int { engine.changeCount }

    /// Throws away every change the child holds, leaving the parent untouched.
    ///
    /// Queued asynchronous writes run first, so nothing queued before the call survives it.
    ///
    /// ```swift
    /// try basket.discardChanges()   // the user pressed Cancel
    /// ```
    public func discardChanges() throws {
        try scheduler.performExclusive(named: "discardChanges") { engine.clear() }
    }
}
