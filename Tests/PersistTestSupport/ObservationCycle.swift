import Persist

/// One observe-and-cancel cycle, as the live query leak tests repeat it 10,000 times.
///
/// ```swift
/// for _ in 0..<10_000 { try await ObservationCycle.run(store, DataStoreRequest(itemType: "Note")) }
/// ```
public enum ObservationCycle {
    /// Observes, waits for the first result, and cancels the consuming task.
    public static func run(_ store: any DataStore, _ request: DataStoreRequest) async throws {
        let stream = store.observe(request)
        let consumer = Locked<Task<Void, Never>?>(nil)
        try await withCheckedThrowingContinuation { (first: CheckedContinuation<Void, any Error>) in
            consumer.withLock { consumer in
                consumer = Task {
                    var iterator = stream.makeAsyncIterator()
                    var waiting = true
                    do {
                        _ = try await iterator.next()
                        waiting = false
                        first.resume()
                        while try await iterator.next() != nil {}
                    } catch {
                        if waiting { first.resume(throwing: error) }
                    }
                }
            }
        }
        let task = consumer.value
        task?.cancel()
        await task?.value
    }
}
