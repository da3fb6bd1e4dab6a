import Dispatch

/// The commit notifications of one store: its write scheduler posts one after every committed
/// write (a merge is a write of the parent), and live queries subscribe to them.
///
/// A center may have an upstream, started while it has subscribers and stopped when the last one
/// leaves: a child store's center subscribes to its parent's, and a store whose engine sees other
/// processes' commits (``ExternalChangeSource``) polls it. Subscribers are called without any
/// lock held, from whichever thread posted.
package final class ObservationCenter: Sendable {
    /// What a subscriber hears.
    package enum Event: Sendable {
        /// Committed data may have changed.
        case changed
        /// The store can no longer be observed (it was torn down, or its file vanished).
        case failed(DataStoreError)
    }

    /// Starts an upstream that delivers events; returns the function that stops it.
    package typealias Upstream = @Sendable (_ deliver: @escaping @Sendable (Event) -> Void) -> @Sendable () -> Void

    private struct State {
        var subscribers: [Int: @Sendable (Event) -> Void] = [:]
        var nextToken = 0
        var upstream: Upstream?
        var stopUpstream: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    package init() {}

    /// How many subscribers are listening.
    package var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Sets the upstream (once, before anyone subscribes).
    package func setUpstream(_ upstream: @escaping Upstream) {
        state.withLock { $0.upstream = upstream }
    }

    /// Adds a subscriber; returns the token that removes it.
    package func subscribe(_ subscriber: @escaping @Sendable (Event) -> Void) -> Int {
        state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.subscribers[token] = subscriber
            if state.subscribers.count == 1, state.stopUpstream == nil, let upstream = state.upstream {
                state.stopUpstream = upstream { [weak self] event in self?.post(event) }
            }
            return token
        }
    }

    /// Removes a subscriber; stops the upstream when it was the last.
    ///
    /// The upstream is stopped under the lock, as it is started: a subscriber arriving meanwhile
    /// starts a new upstream only after the old one's stop has run, so the old one's end (which an
    /// engine watch queues on the write queue) comes before the new one's start. Stopping never
    /// waits, and takes only the locks of the centers upstream, which starting takes too.
    package func unsubscribe(_ token: Int) {
        state.withLock { state in
            guard state.subscribers.removeValue(forKey: token) != nil, state.subscribers.isEmpty else { return }
            state.stopUpstream?()
            state.stopUpstream = nil
        }
    }

    /// Tells every subscriber. A failure also removes them all and stops the upstream (under the
    /// lock, as ``unsubscribe(_:)`` does).
    package func post(_ event: Event) {
        let subscribers = state.withLock { state -> [@Sendable (Event) -> Void] in
            let subscribers = Array(state.subscribers.values)
            guard case .failed = event else { return subscribers }
            state.subscribers.removeAll()
            state.stopUpstream?()
            state.stopUpstream = nil
            return subscribers
        }
        for subscriber in subscribers { subscriber(event) }
    }
}
