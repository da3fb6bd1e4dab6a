import Dispatch
import Foundation
import Persist

/// Consumes a live query on a task of its own and keeps what it yields, so that a test can wait
/// for a result (with a generous deadline that only guards against hanging) and then cancel.
///
/// The consuming task runs on a dispatch queue of its own, not on the cooperative thread pool:
/// tests running in parallel may block every cooperative thread for a long time, and a live query
/// keeps only its newest result for a consumer that does not run (bursts coalesce), so a starved
/// consumer would see one result where the store delivered many.
///
/// ```swift
/// let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Note")))
/// try await recorder.waitFor { $0.last?.count == 1 }
/// await recorder.cancel()
/// ```
public final class ObservationRecorder<Element: Sendable>: Sendable {
    private struct State {
        var results: [Element] = []
        var ended = false
        var error: (any Error)?
    }

    private let state = Locked(State())
    private let task = Locked<Task<Void, Never>?>(nil)

    /// Starts consuming `stream`.
    public init(_ stream: AsyncThrowingStream<Element, any Error>) {
        let state = state
        task.withLock {
            $0 = Task(executorPreference: RecorderExecutor.shared) {
                do {
                    for try await element in stream {
                        state.withLock { $0.results.append(element) }
                    }
                    state.withLock { $0.ended = true }
                } catch {
                    state.withLock {
                        $0.ended = true
                        $0.error = error
                    }
                }
            }
        }
    }

    /// Everything yielded so far, in order.
    public var results: [Element] { state.withLock { $0.results } }
    /// Whether the stream ended (normally or with an error).
    public var ended: Bool { state.withLock { $0.ended } }
    /// The error the stream ended with, if any.
    public var error: (any Error)? { state.withLock { $0.error } }

    /// Waits until `condition` holds for the results so far, checking it on the caller's actor
    /// (`isolation`, which the caller leaves out), so a test on the main actor may pass a closure
    /// that is not `@Sendable`.
    ///
    /// - Throws: ``ObservationTimeout`` when it does not hold within `seconds`: a guard against a
    ///   hang, generous because tests running in parallel may keep the task from running for a while.
    ///
    /// ```swift
    /// let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Note")))
    /// try await recorder.waitFor { $0.last?.isEmpty == false }
    /// await recorder.cancel()
    /// ```
    public func waitFor(seconds: Double = 60, isolation: isolated (any Actor)? = #isolation,
                        _ condition: ([Element]) -> Bool) async throws {
        try await wait(seconds: seconds) { condition($0.results) }
    }

    /// Waits until the stream ends.
    public func waitForEnd(seconds: Double = 60) async throws {
        try await wait(seconds: seconds) { $0.ended }
    }

    private func wait(seconds: Double, isolation: isolated (any Actor)? = #isolation,
                      _ condition: (State) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !state.withLock({ condition($0) }) {
            if Date() > deadline { throw ObservationTimeout(results: state.withLock { $0.results.count }) }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    /// Cancels the consuming task, which ends the observation, and waits for it to finish.
    public func cancel() async {
        let running = task.withLock { $0 }
        running?.cancel()
        await running?.value
    }
}

/// Runs recorder tasks on a serial dispatch queue, off the cooperative thread pool.
private final class RecorderExecutor: TaskExecutor {
    static let shared = RecorderExecutor()
    private let queue = DispatchQueue(label: "persist.observation-recorder")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// A live query did not yield what a test waited for within its deadline.
public struct ObservationTimeout: Error, CustomStringConvertible {
    /// How many results had arrived.
    public let results: Int
    /// A readable rendering, for messages and logs.
    public var description: String { "the live query did not yield the awaited result (\(results) results arrived)" }
}
