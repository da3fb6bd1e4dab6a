import Dispatch

/// One live query: re-runs its request after each commit notification, and yields the result (the
/// items, or the items with their related items) when
/// it differs from the last one yielded. ``ReceivedResults`` then hands the consumer only what
/// differs from the result it received last.
///
/// Refreshes run on the store's observation queue, one at a time per query; notifications that
/// arrive while one runs are coalesced into a single further refresh. A refresh that meets a
/// condition that passes by itself (the store locked by another connection past its busy
/// timeout, as another program writing a file in a rollback journal does; a server with no
/// connection slot free) is no failure of the query: it runs again after `retryDelay`, and the
/// stream goes on.
final class LiveQuery<Snapshot: Sendable & Equatable>: Sendable {
    private struct State {
        var running = false
        var dirty = false
        var finished = false
        var last: Snapshot?
    }

    private let state = Locked(State())
    private let fetch: @Sendable () throws -> Snapshot
    private let continuation: AsyncThrowingStream<Snapshot, any Error>.Continuation
    private let queue: DispatchQueue
    private let retryDelay: Duration
    private let isTransient: @Sendable (DataStoreError) -> Bool
    private let onTransient: @Sendable (DataStoreError) -> Void

    /// A query refreshed on `queue` by `fetch`; a refresh failing with an error `isTransient`
    /// accepts is told to `onTransient` and runs again after `retryDelay`.
    init(queue: DispatchQueue, continuation: AsyncThrowingStream<Snapshot, any Error>.Continuation,
         retryDelay: Duration, isTransient: @escaping @Sendable (DataStoreError) -> Bool,
         onTransient: @escaping @Sendable (DataStoreError) -> Void, fetch: @escaping @Sendable () throws -> Snapshot) {
        self.queue = queue
        self.continuation = continuation
        self.retryDelay = retryDelay
        self.isTransient = isTransient
        self.onTransient = onTransient
        self.fetch = fetch
    }

    /// Something may have changed: refresh now, or once more after the refresh that is running.
    func changed() {
        let start = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            if state.running {
                state.dirty = true
                return false
            }
            state.running = true
            return true
        }
        if start { queue.async { self.refresh() } }
    }

    private func refresh() {
        while true {
            let proceed = state.withLock { state -> Bool in
                state.dirty = false
                return !state.finished
            }
            guard proceed else { return }
            do {
                let snapshot = try fetch()
                let fresh = state.withLock { state -> Bool in
                    guard !state.finished, state.last != snapshot else { return false }
                    state.last = snapshot
                    return true
                }
                if fresh { continuation.yield(snapshot) }
            } catch let error as DataStoreError where isTransient(error) {
                retryLater(after: error)
                return
            } catch {
                finish(throwing: error)
                return
            }
            let again = state.withLock { state -> Bool in
                if state.dirty && !state.finished { return true }
                state.running = false
                return false
            }
            if !again { return }
        }
    }

    /// Stops this refresh and runs the query again after `retryDelay`; a notification arriving
    /// meanwhile starts a refresh at once, as when none runs.
    private func retryLater(after error: DataStoreError) {
        let live = state.withLock { state -> Bool in
            state.running = false
            state.dirty = false
            return !state.finished
        }
        guard live else { return }
        onTransient(error)
        queue.asyncAfter(deadline: .now() + .nanoseconds(retryDelay.dispatchNanoseconds)) { self.changed() }
    }

    /// Ends the stream with `error` (or normally, when `nil`); later notifications do nothing.
    func finish(throwing error: (any Error)?) {
        let first = state.withLock { state -> Bool in
            defer { state.finished = true }
            return !state.finished
        }
        guard first else { return }
        continuation.finish(throwing: error)
    }

    /// Marks the query finished after its consumer went away.
    func terminated() {
        state.withLock { $0.finished = true }
    }
}
