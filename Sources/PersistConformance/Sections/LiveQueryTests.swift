import Foundation
import Persist
import Testing

/// Live queries (`observe`). They run in the concurrency group: results arrive on threads the
/// store owns while the test writes, which ThreadSanitizer must see.
enum LiveQueryTests {
    static func note(_ id: ItemID, _ value: Int) -> Item {
        Item(itemType: "Note", id: id, attributes: ["v": .int(Int64(value))])
    }

    static func ids(_ items: [Item]) -> [ItemID] { items.map(\.id) }

    /// How many live queries listen to the store's commits (0 when the store is not engine-backed).
    static func subscribers(_ store: any DataStore) -> Int {
        store.writeScheduler?.observations.subscriberCount ?? 0
    }

    struct Note: DataStoreEntity, Equatable {
        static let itemType = "Note"
        var id: String
        var v: Int
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("observe yields the current result at once, then each changed result", group: .concurrency) { context in
            let store = try context.makeStore()
            try seed(store, [note("a", 1)])
            var request = DataStoreRequest(itemType: "Note")
            request.filter = .attribute("v") >= 1
            let recorder = ObservationRecorder(store.observe(request))
            try await recorder.waitFor { $0.count == 1 }
            #expect(recorder.results.map(ids) == [["a"]])
            try store.writeSync { accessor in try accessor.insert(note("b", 2)) }
            try await recorder.waitFor { $0.last.map(ids) == ["a", "b"] }
            try store.writeSync { accessor in try accessor.deleteItem(ofType: "Note", id: "a") }
            try await recorder.waitFor { $0.last.map(ids) == ["b"] }
            await recorder.cancel()
        },
        ConformanceTest("a write that leaves the result unchanged is not yielded again", group: .concurrency) { context in
            let store = try context.makeStore()
            try seed(store, [note("a", 1)])
            let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Note")))
            try await recorder.waitFor { $0.count == 1 }
            try store.writeSync { accessor in try accessor.insert(Item(itemType: "Other", id: "x")) }
            try store.writeSync { accessor in try accessor.save(note("a", 1)) }
            try store.writeSync { accessor in try accessor.insert(note("b", 2)) }
            try await recorder.waitFor { $0.last.map(ids) == ["a", "b"] }
            #expect(recorder.results.map(ids) == [["a"], ["a", "b"]])
            await recorder.cancel()
        },
        ConformanceTest("a result the consumer received is not yielded again after a result it never read",
                        group: .concurrency) { context in
            let store = try context.makeStore()
            try seed(store, [note("a", 0)])
            var results = store.observe(DataStoreRequest(itemType: "Note")).makeAsyncIterator()
            #expect(try await results.next() == [note("a", 0)])
            // While the consumer reads nothing, the value changes and changes back, each change
            // refreshed before the next: the newest result is the one the consumer already has.
            for value in [1, 0] {
                try store.writeSync { accessor in try accessor.save(note("a", value)) }
                try await Task.sleep(for: .milliseconds(250))
            }
            let later = Task {
                try await Task.sleep(for: .milliseconds(250))
                try store.writeSync { accessor in try accessor.save(note("a", 2)) }
            }
            #expect(try await results.next() == [note("a", 2)])
            try await later.value
        },
        ConformanceTest("a burst of writes coalesces and ends on the final result", group: .concurrency) { context in
            let store = try context.makeStore()
            let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Note")))
            try await recorder.waitFor { $0.count == 1 }
            for value in 1...60 {
                store.writeAsync { accessor in try accessor.save(note("n", value)) }
            }
            try store.flush()
            try await recorder.waitFor { $0.last == [note("n", 60)] }
            #expect(recorder.results.count <= 61)
            #expect(recorder.results.dropFirst().allSatisfy { $0.count == 1 })
            await recorder.cancel()
        },
        ConformanceTest("cancelling the consuming task ends the observation and releases it", group: .concurrency) { context in
            let store = try context.makeStore()
            let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Note")))
            try await recorder.waitFor { $0.count == 1 }
            #expect(subscribers(store) == 1)
            await recorder.cancel()
            #expect(subscribers(store) == 0)
            try store.writeSync { accessor in try accessor.insert(note("a", 1)) }
            #expect(recorder.results.count == 1)
        },
        ConformanceTest("tearing the store down ends its live queries with an error", group: .concurrency) { context in
            let store = try context.makeStore()
            let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Note")))
            try await recorder.waitFor { $0.count == 1 }
            try store.tearDown()
            try await recorder.waitForEnd()
            #expect((recorder.error as? DataStoreError)?.code == .misuse)
            #expect(subscribers(store) == 0)
        },
        ConformanceTest("an invalid request ends the stream with invalidArgument", group: .concurrency) { context in
            let store = try context.makeStore()
            var request = DataStoreRequest(itemType: "Note")
            request.limit = -1
            let recorder = ObservationRecorder(store.observe(request))
            try await recorder.waitForEnd()
            #expect((recorder.error as? DataStoreError)?.code == .invalidArgument)
            #expect(recorder.results.isEmpty)
            let typed = ObservationRecorder(store.observe(Note.self, DataStoreRequest(itemType: "Other")))
            try await typed.waitForEnd()
            #expect((typed.error as? DataStoreError)?.code == .invalidArgument)
        },
        ConformanceTest("a typed live query yields entities", group: .concurrency) { context in
            let store = try context.makeStore()
            try seed(store, [note("a", 1)])
            var request = DataStoreRequest(itemType: Note.self)
            request.setSort(byKey: "v", ascending: false)
            let recorder = ObservationRecorder(store.observe(Note.self, request))
            try await recorder.waitFor { $0.count == 1 }
            try store.writeSync { accessor in try accessor.insert(Note(id: "b", v: 5)) }
            try await recorder.waitFor { $0.last == [Note(id: "b", v: 5), Note(id: "a", v: 1)] }
            await recorder.cancel()
        },
        ConformanceTest("a child's live query shows its own writes at once and its parent's commits; "
                        + "the parent's changes when the child is merged", group: .concurrency) { context in
            let parent = try context.makeStore()
            try seed(parent, [note("a", 1)])
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            let request = DataStoreRequest(itemType: "Note")
            let inChild = ObservationRecorder(child.observe(request))
            let inParent = ObservationRecorder(parent.observe(request))
            try await inChild.waitFor { $0.count == 1 }
            try await inParent.waitFor { $0.count == 1 }
            try child.writeSync { accessor in try accessor.insert(note("b", 2)) }
            try await inChild.waitFor { $0.last.map(ids) == ["a", "b"] }
            try parent.writeSync { accessor in try accessor.insert(note("c", 3)) }
            try await inChild.waitFor { $0.last.map(ids) == ["a", "b", "c"] }
            try await inParent.waitFor { $0.last.map(ids) == ["a", "c"] }
            try parent.merge(child)
            try await inParent.waitFor { $0.last.map(ids) == ["a", "b", "c"] }
            #expect(inParent.results.map(ids) == [["a"], ["a", "c"], ["a", "b", "c"]])
            await inChild.cancel()
            await inParent.cancel()
            #expect(subscribers(parent) == 0)
        },
        ConformanceTest("discarding a child's changes refreshes its live queries", group: .concurrency) { context in
            let parent = try context.makeStore()
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            let recorder = ObservationRecorder(child.observe(DataStoreRequest(itemType: "Note")))
            try await recorder.waitFor { $0.count == 1 }
            try child.writeSync { accessor in try accessor.insert(note("a", 1)) }
            try await recorder.waitFor { $0.last.map(ids) == ["a"] }
            try child.discardChanges()
            try await recorder.waitFor { $0.last == [] }
            await recorder.cancel()
        },
    ]
}
