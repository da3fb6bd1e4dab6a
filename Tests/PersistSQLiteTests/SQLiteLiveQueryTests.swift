import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

@Suite("SQLite live queries see other connections' commits and release what they hold")
struct SQLiteLiveQueryTests {
    static func note(_ id: String, _ value: Int64) -> Item {
        Item(itemType: "Note", id: .string(id), attributes: ["v": .int(value)])
    }

    /// Runs `body` with a store holding Note/"a", observed, after its first result arrived.
    static func observing(_ body: (ObservationRecorder<[Item]>, String) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.sqlite")
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        try store.writeSync { accessor in try accessor.insert(Self.note("a", 1)) }
        let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Note")))
        try await recorder.waitFor { $0.count == 1 }
        try await body(recorder, path)
        await recorder.cancel()
    }

    @Test("a commit by another connection reaches a live query within the poll interval")
    func otherConnection() async throws {
        try await Self.observing { recorder, path in
            let raw = try RawDatabase(path)
            try raw.exec("INSERT INTO \"Note\" (persist_id, v) VALUES ('b', 2)")
            raw.close()
            try await recorder.waitFor { $0.last?.map(\.id) == ["a", "b"] }
        }
    }

    @Test("a live query ends with notFound when the database file vanishes")
    func vanished() async throws {
        try await Self.observing { recorder, path in
            try FileManager.default.removeItem(atPath: path)
            try await recorder.waitForEnd()
            let error = recorder.error as? DataStoreError
            #expect(error?.code == .notFound)
            #expect(error?.path == path)
        }
    }

    @Test("10,000 observe and cancel cycles leave no thread, file descriptor or connection behind",
          arguments: ["file", "child"])
    func cycles(_ kind: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = SQLiteDataStore(path: directory.path("store.sqlite"), options: quietOptions())
        try root.setup()
        defer { try? root.tearDown() }
        try root.writeSync { accessor in try accessor.insert(Self.note("a", 1)) }
        let store: any DataStore = kind == "child" ? try root.makeChildDataStore() : root
        try store.setup()
        let request = DataStoreRequest(itemType: "Note")
        for _ in 0..<200 { try await ObservationCycle.run(store, request) }
        let before = try ProcessResources.current()
        let connections = SQLiteDataStore.openConnectionCount
        for _ in 0..<10_000 { try await ObservationCycle.run(store, request) }
        // Give watching timers that were cancelled a moment to run their last block.
        try root.flush()
        let grown = try ProcessResources.current().grew(from: before)
        #expect(grown == nil, "\(grown ?? "")")
        // Other tests open connections in parallel: the slack absorbs them.
        #expect(SQLiteDataStore.openConnectionCount <= connections + 32,
                "connections: \(connections) → \(SQLiteDataStore.openConnectionCount)")
        #expect((root as any EngineBackedDataStore).scheduler.observations.subscriberCount == 0)
        #expect(store.writeScheduler?.observations.subscriberCount == 0)
    }

    @Test("a write block after the database file was removed or replaced fails with notFound and stores nothing",
          arguments: ["removed", "replaced"])
    func writeAfterFileGone(_ how: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("notes.sqlite")
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        try expectWriteFailsAfterFile(how, of: store, at: path)
    }
}
