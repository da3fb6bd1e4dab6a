import Foundation
import Persist
import Testing

@Suite("A live query's stream has one consumer")
struct LiveQueryConsumerTests {
    @Test("a second task iterating a stream while the first waits ends with misuse; the first goes on")
    func twoConsumers() async throws {
        let store = InMemoryDataStore()
        try store.setup()
        defer { try? store.tearDown() }
        let stream = store.observe(DataStoreRequest(itemType: "Note"))
        let firstCount = Locked(0)
        let first = Task {
            var received: [[Item]] = []
            for try await result in stream {
                received.append(result)
                firstCount.withLock { $0 = received.count }
                if received.count == 2 { break }
            }
            return received
        }
        // The first task has its first result and waits in the stream for the next.
        while firstCount.value == 0 { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(200))
        let second = Task { () -> DataStoreError? in
            do {
                for try await _ in stream {}
                return nil
            } catch {
                return error as? DataStoreError
            }
        }
        let error = await second.value
        #expect(error?.code == .misuse)
        #expect(error?.message.contains("two tasks at once") == true)
        try store.writeSync { accessor in try accessor.insert(Item(itemType: "Note", id: 1)) }
        let received = try await first.value
        #expect(received == [[], [Item(itemType: "Note", id: 1)]])
    }
}
