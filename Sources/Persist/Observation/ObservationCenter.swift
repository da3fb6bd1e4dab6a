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
    package func unsubscribe(_ token: Int) {
        let stop = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.subscribers.removeValue(forKey: token) != nil, state.subscribers.isEmpty else { return nil }
            defer { state.stopUpstream = nil }
            return state.stopUpstream
        }
        stop?()
    }

    /// Tells every subscriber. A failure also removes them all and stops the upstream.
    package func post(_ event: Event) {
        let (subscribers, stop) = state.withLock { state -> ([@Sendable (Event) -> Void], (@Sendable () -> Void)?) in
            let subscribers = Array(state.subscribers.values)
            guard case .failed = event else { return (subscribers, nil) }
            state.subscribers.removeAll()
            defer { state.stopUpstream = nil }
            return (subscribers, state.stopUpstream)
        }
        stop?()
        for subscriber in subscribers { subscriber(event) }
    }
}
