import Dispatch
import Foundation
import Persist
import Testing

/// An engine whose only state is whether it is watching for other processes' commits.
private final class WatchedEngine: DataStoreEngine, ExternalChangeSource {
    let location = ":watched:"
    let watching = Locked(false)
    let begins = Locked(0)
    var externalChangePollInterval: Duration { .milliseconds(1) }
    func open() throws {}
    func close() throws {}
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T { try body(EmptyWriter()) }
    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T { try body(EmptyWriter()).value }
    func beginWatchingExternalChanges() throws {
        watching.withLock { $0 = true }
        begins.withLock { $0 += 1 }
    }
    func pollExternalChanges() throws -> Bool { false }
    func endWatchingExternalChanges() { watching.withLock { $0 = false } }
}

@Suite("Live queries and the engine's watch")
struct ObservationRaceTests {
    @Test("a live query started while the last other one is cancelled leaves the engine watching")
    func startWhileCancelling() async throws {
        let store = EngineStore(WatchedEngine())
        try store.setup()
        defer { try? store.tearDown() }
        let request = DataStoreRequest(itemType: "T")
        func waitUntil(_ condition: () -> Bool) async {
            for _ in 0..<2_000 where !condition() { try? await Task.sleep(for: .microseconds(200)) }
        }
        var unwatched = 0
        for _ in 0..<200 {
            let first = store.observe(request)
            let firstTask = Task { for try await _ in first {} }
            let begun = store.engine.begins.value
            await waitUntil { store.engine.begins.value > begun }
            // Cancel the only live query and start another at the same moment.
            let second = Locked<AsyncThrowingStream<[Item], any Error>?>(nil)
            let beginsBefore = store.engine.begins.value
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    firstTask.cancel()
                } else {
                    let stream = store.observe(request)
                    second.withLock { $0 = stream }
                }
            }
            let stream = try #require(second.value)
            let secondTask = Task { for try await _ in stream {} }
            await waitUntil { store.engine.begins.value > beginsBefore }
            // Every watch change queued so far has run once the write queue is empty.
            try store.flush()
            if store.scheduler.observations.subscriberCount == 1 && !store.engine.watching.value { unwatched += 1 }
            secondTask.cancel()
            await waitUntil { store.scheduler.observations.subscriberCount == 0 }
            try store.flush()
            await waitUntil { !store.engine.watching.value }
        }
        #expect(unwatched == 0, "\(unwatched) of 200 rounds left a live query with the engine not watching")
    }
}
