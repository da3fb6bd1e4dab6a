import Logging

/// The state one read or write block shares with its accessor and mutable items.
///
/// It lives on the thread running the block; when the block ends it is closed, and every accessor
/// and mutable item that refers to it refuses further use.
final class BlockContext {
    private(set) var isActive = true
    /// The scheduler running the block: its logger, index catalog and identifier reservations
    /// (held as one reference, so that a block costs one retain for them, not one for each).
    private let scheduler: WriteScheduler
    let location: String
    /// Indexes this block declared in ``catalog``'s place, added to it when the block commits.
    var declaredIndexes: [DataStoreIndex] = []
    /// Relations this block declared in ``relationCatalog``'s place, added to it when the block commits.
    var declaredRelations: [DataStoreRelation] = []
    /// Mutable items changed since they were last written to the transaction, in change order.
    var dirtyItems: [MutableItem] = []
    /// The first failed in-place change (a subscript cannot throw); the block fails with it.
    var pendingError: DataStoreError?

    init(scheduler: WriteScheduler, location: String) {
        self.scheduler = scheduler
        self.location = location
    }

    var logger: Logger { scheduler.logger }
    /// The scheduler's index declarations, for an engine that keeps none itself.
    var catalog: IndexCatalog { scheduler.catalog }
    /// The scheduler's relation declarations, for an engine that keeps none itself.
    var relationCatalog: RelationCatalog { scheduler.relationCatalog }
    /// The integer identifiers the store and its children handed out.
    var reservations: IDReservations { scheduler.reservations }

    func close() {
        isActive = false
        dirtyItems.removeAll()
        pendingError = nil
    }

    /// Throws the first failed in-place change of this block, if any.
    func checkPendingError() throws {
        if let pendingError { throw pendingError }
    }

    /// Runs a check of a caller's arguments, or an engine call the caller's arguments may fail: a
    /// ``DataStoreError`` it throws without a path gets this block's store as its path and in its
    /// message, so that every error names the store concerned.
    func locating<T>(_ body: () throws -> T) throws -> T {
        try Self.locating(location, body)
    }

    /// Runs `body`; a ``DataStoreError`` it throws without a path gets `location` as its path
    /// and in its message.
    static func locating<T>(_ location: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DataStoreError {
            throw error.located(at: location)
        }
    }

    func checkActive(_ what: String) throws {
        guard isActive else {
            throw DataStoreError.misuse(
                "\(what) was used after its block ended; accessors and mutable items are valid only inside "
                    + "the read or write block that handed them out (store \(location))")
        }
    }
}
