extension DataStore {
    /// A live query: yields the items `request` selects at once, then the fresh result after each
    /// committed write or merge that changes it. An unchanged result is not yielded again, and a
    /// burst of writes yields once (a slow consumer gets the newest result).
    ///
    /// Commits through this store object (and, for a child store, its parent's) are seen at once;
    /// commits by other processes within the poll interval, where the engine can tell of them (an
    /// ``ExternalChangeSource``; each store's documentation says which commits it sees, see
    /// <doc:LiveQueries>).
    /// Cancelling the consuming task ends the observation and releases what it holds; tearing the
    /// store down, or losing its file, ends the stream with that error. A query that finds the
    /// store locked by another connection runs again a poll interval later instead.
    ///
    /// ```swift
    /// var open = DataStoreRequest(itemType: "Todo")
    /// open.filter = .attribute("done") == false
    /// for try await todos in store.observe(open) {
    ///     render(todos)
    /// }
    /// ```
    public func observe(_ request: DataStoreRequest) -> AsyncThrowingStream<[Item], any Error> {
        observe(request) { $0 }
    }

    /// A typed live query: as ``observe(_:)``, yielding entities.
    ///
    /// ```swift
    /// var request = DataStoreRequest(itemType: Restaurant.self)
    /// request.setSort(byKey: "rating", ascending: false)
    /// for try await restaurants in store.observe(Restaurant.self, request) {
    ///     show(restaurants)
    /// }
    /// ```
    ///
    /// The stream ends with ``DataStoreError/Code/invalidArgument`` when the request is for another
    /// item type, and with ``DataStoreError/Code/typeMismatch`` when an item does not decode.
    public func observe<E: DataStoreEntity>(_ type: E.Type, _ request: DataStoreRequest) -> AsyncThrowingStream<[E], any Error> {
        // As getAll(_:forRequest:) compares them: names as Swift strings.
        guard request.itemType == E.itemType else {
            let location = self.location
            return AsyncThrowingStream { continuation in
                continuation.finish(throwing: DataStoreError(
                    .invalidArgument, "the request is for \(request.itemType) but \(E.self) is stored as \(E.itemType)",
                    path: location))
            }
        }
        return observe(request) { items in try items.map(E.init(item:)) }
    }

    private func observe<Output: Sendable>(
        _ request: DataStoreRequest, transform: @escaping @Sendable ([Item]) throws -> Output
    ) -> AsyncThrowingStream<Output, any Error> {
        if let scheduler = writeScheduler {
            return scheduler.observe(request, transform: transform)
        }
        // A store of its own making reports no commits: its current result is all there is.
        return AsyncThrowingStream { continuation in
            do {
                let items = try read { accessor in try accessor.items(forRequest: request) }
                continuation.yield(try transform(items))
                continuation.finish(throwing: DataStoreError(
                    .unsupported, "\(location) is not built on a WriteScheduler, which reports commits; "
                        + "it cannot be observed beyond its current result", path: location))
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }
}
