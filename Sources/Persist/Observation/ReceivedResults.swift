/// The consumer's side of a live query: hands on each result that differs from the one the
/// consumer received last, passed through the query's transform.
///
/// A live query keeps only the newest result for a slow consumer, so a result can be replaced
/// before it is received: after A, B and A again, a consumer that received A and missed B would
/// otherwise receive A a second time. Comparing with what was received never repeats a result.
/// Typed queries also decode only the results that are received.
// @unchecked Sendable: `iterator` and `received` are only touched by the call of `next()` that
// holds `busy`, which the lock hands to one call at a time.
final class ReceivedResults<Snapshot: Sendable & Equatable, Output: Sendable>: @unchecked Sendable {
    private var iterator: AsyncThrowingStream<Snapshot, any Error>.Iterator?
    private var received: Snapshot?
    private let busy = Locked(false)
    private let transform: @Sendable (Snapshot) throws -> Output
    private let location: String

    /// The results of `results` that differ from the one received before them, through `transform`.
    init(of results: AsyncThrowingStream<Snapshot, any Error>, transform: @escaping @Sendable (Snapshot) throws -> Output,
         location: String) {
        iterator = results.makeAsyncIterator()
        self.transform = transform
        self.location = location
    }

    /// The next result that differs from the last one received; `nil` when the query ended.
    /// Ending with an error, or the transform failing, ends the query.
    @Sendable
    func next() async throws -> Output? {
        let claimed = busy.withLock { busy in
            defer { busy = true }
            return !busy
        }
        guard claimed else {
            throw DataStoreError(
                .misuse, "a live query of \(location) was iterated by two tasks at once; a stream of results "
                    + "has one consumer: observe the request again for another", path: location)
        }
        defer { busy.withLock { $0 = false } }
        while var current = iterator {
            let snapshot: Snapshot?
            do {
                snapshot = try await current.next()
            } catch {
                iterator = nil
                throw error
            }
            guard let snapshot else {
                iterator = nil
                return nil
            }
            iterator = current
            if snapshot == received { continue }
            received = snapshot
            do {
                return try transform(snapshot)
            } catch {
                iterator = nil
                throw error
            }
        }
        return nil
    }
}
