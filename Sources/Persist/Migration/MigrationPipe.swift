import Dispatch

/// The bounded queue between a migration's reading thread and its writing thread: the reader
/// blocks when `capacity` chunks wait, so memory stays flat however fast it reads.
///
/// The state is guarded by the package's one lock type; two semaphores only count free slots and
/// waiting chunks, so that each side can sleep without holding the lock.
final class MigrationPipe: Sendable {
    /// What the reader sends.
    enum Message: Sendable {
        /// Items of one type, in the order read.
        case items(itemType: String, [ItemRow])
        /// Every item of the type was sent; what the reader counted for it.
        case endOfType(MigrationSourceStats)
    }

    private struct State {
        var messages: [Message] = []
        var head = 0
        var finished = false
        var failure: (any Error)?
        var closedByConsumer = false
    }

    private let state = Locked(State())
    private let freeSlots: DispatchSemaphore
    private let waiting = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        // Created empty and then given its slots: libdispatch traps when a semaphore is released
        // holding less than it was created with, as this one does when the reader stops early.
        freeSlots = DispatchSemaphore(value: 0)
        for _ in 0..<max(capacity, 1) { freeSlots.signal() }
    }

    /// Sends a message, waiting for a free slot; `false` when the consumer has given up.
    func send(_ message: Message) -> Bool {
        freeSlots.wait()
        let accepted = state.withLock { state -> Bool in
            guard !state.closedByConsumer else { return false }
            state.messages.append(message)
            return true
        }
        if accepted { waiting.signal() } else { freeSlots.signal() }
        return accepted
    }

    /// Ends the stream: normally, or with the reader's error.
    func finish(failure: (any Error)?) {
        state.withLock { state in
            state.finished = true
            state.failure = failure
        }
        waiting.signal()
    }

    /// The next message; `nil` once the reader finished and everything was received.
    ///
    /// - Throws: the reader's error, once the messages sent before it were received.
    func receive() throws -> Message? {
        while true {
            waiting.wait()
            let next = try state.withLock { state -> Message?? in
                if state.head < state.messages.count {
                    let message = state.messages[state.head]
                    state.head += 1
                    if state.head > 64 && state.head * 2 > state.messages.count {
                        state.messages.removeFirst(state.head)
                        state.head = 0
                    }
                    return .some(message)
                }
                guard state.finished else { return .none }
                if let failure = state.failure { throw failure }
                return .some(nil)
            }
            switch next {
            case .some(let message):
                if message != nil { freeSlots.signal() } else { waiting.signal() }
                return message
            case .none:
                continue
            }
        }
    }

    /// Tells the reader to stop: its next ``send(_:)`` returns `false` (a waiting one wakes up).
    func close() {
        state.withLock { $0.closedByConsumer = true }
        freeSlots.signal()
    }
}
