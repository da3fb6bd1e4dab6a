import Foundation
import Persist
import Testing

/// What a wrapper author's engine sees when it fails with errors of its own type: the store keeps
/// its promise that every error it throws is a ``DataStoreError`` naming the store, and that a
/// failed write leaves nothing behind.
@Suite("A third-party engine's own errors")
struct EngineFailureTests {
    private static func openStore() throws -> (FailingEngine, FailingStore) {
        let engine = FailingEngine()
        let store = FailingStore(engine: engine)
        try store.setup()
        return (engine, store)
    }

    private static func expectWrapped(_ error: DataStoreError, _ operation: String) {
        #expect(error.code == .io)
        #expect(error.path == "failing-engine")
        #expect(error.message.contains("failing-engine") && error.message.contains(operation), "\(error.message)")
        #expect(error.engineMessage == "the disk said no")
    }

    @Test("a commit failing with the engine's own error throws a DataStoreError and stores nothing")
    func commitFails() throws {
        let (engine, store) = try Self.openStore()
        defer { try? store.tearDown() }
        engine.failNextCommit()
        let error = try #require(throws: DataStoreError.self) {
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "Note", id: 1))
                try accessor.insert(Item(itemType: "Note", id: 2))
            }
        }
        Self.expectWrapped(error, "write")
        #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Note")) } == 0)
        // The store goes on: the next write commits.
        try store.writeSync { accessor in try accessor.insert(Item(itemType: "Note", id: 1)) }
        #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Note")) } == 1)
    }

    @Test("an asynchronous write whose commit fails completes with a DataStoreError")
    func asyncCommitFails() async throws {
        let (engine, store) = try Self.openStore()
        defer { try? store.tearDown() }
        engine.failNextCommit()
        let error = try await #require(throws: DataStoreError.self) {
            try await store.write { accessor in try accessor.insert(Item(itemType: "Note", id: 1)) }
        }
        Self.expectWrapped(error, "write")
    }

    @Test("an open failing with the engine's own error throws a DataStoreError, and setup may be retried")
    func openFails() throws {
        let engine = FailingEngine()
        let store = FailingStore(engine: engine)
        engine.failNextOpen()
        let error = try #require(throws: DataStoreError.self) { try store.setup() }
        Self.expectWrapped(error, "open")
        try store.setup()
        try store.tearDown()
    }

    @Test("a read the engine cannot start throws a DataStoreError")
    func readFails() throws {
        let (engine, store) = try Self.openStore()
        defer { try? store.tearDown() }
        engine.failNextRead()
        let error = try #require(throws: DataStoreError.self) {
            try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Note")) }
        }
        Self.expectWrapped(error, "read")
    }

    @Test("the block's own errors still come back as they were thrown, through read and write")
    func blockErrorsPassUnchanged() throws {
        let (_, store) = try Self.openStore()
        defer { try? store.tearDown() }
        #expect(throws: DiskTrouble.self) { try store.writeSync { _ in throw DiskTrouble() } }
        #expect(throws: DiskTrouble.self) { try store.read { _ in throw DiskTrouble() } }
        #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Note")) } == 0)
    }
}
