import Foundation
import Persist
import PersistConformance
import PersistPostgres
import PersistTestSupport
import Testing

@Suite("PostgreSQL live queries see other stores' commits and release what they hold")
struct PostgresLiveQueryTests {
    static func note(_ id: String, _ value: Int64) -> Item {
        Item(itemType: "Note", id: .string(id), attributes: ["v": .int(value)])
    }

    @Test("a commit through another store on the same schema reaches a live query; a rollback does not")
    func otherStore() async throws {
        let schema = TestStores.newSchemaName()
        defer { try? TestStores.drop(schema) }
        let options = TestStores.quietOptions {
            $0.schema = schema
            $0.changePollInterval = .milliseconds(20)
        }
        let observed = PostgresDataStore(url: try TestServer.url(), options: options)
        let other = PostgresDataStore(url: try TestServer.url(), options: options)
        try observed.setup()
        defer { try? observed.tearDown() }
        try other.setup()
        defer { try? other.tearDown() }
        try observed.writeSync { try $0.insert(Self.note("a", 1)) }
        let recorder = ObservationRecorder(observed.observe(DataStoreRequest(itemType: "Note")))
        try await recorder.waitFor { $0.count == 1 }
        try other.writeSync { accessor -> TransactionStatus in
            try accessor.insert(Self.note("rolled back", 0))
            return .rollback
        }
        try other.writeSync { try $0.insert(Self.note("b", 2)) }
        try await recorder.waitFor { $0.last?.map(\.id) == ["a", "b"] }
        #expect(recorder.results.allSatisfy { !$0.map(\.id).contains("rolled back") })
        await recorder.cancel()
    }

    @Test("10,000 observe and cancel cycles leave no thread, file descriptor or server connection behind",
          arguments: ["store", "child"])
    func cycles(_ kind: String) async throws {
        try await withPostgresStoreAsync { root in
            try root.writeSync { try $0.insert(Self.note("a", 1)) }
            let store: any DataStore = kind == "child" ? try root.makeChildDataStore() : root
            try store.setup()
            let request = DataStoreRequest(itemType: "Note")
            for _ in 0..<200 { try await ObservationCycle.run(store, request) }
            let resources = try ProcessResources.current()
            let before = try Self.serverConnections()
            for _ in 0..<10_000 { try await ObservationCycle.run(store, request) }
            try root.flush()
            let grown = try ProcessResources.current().grew(from: resources)
            #expect(grown == nil, "\(grown ?? "")")
            let after = try Self.serverConnections()
            // The server's count includes other suites running in parallel: the slack absorbs
            // them, while a connection left behind by each cycle would show 10,000 times.
            #expect(after <= before + 32, "server connections: \(before) → \(after)")
            #expect((root as any EngineBackedDataStore).scheduler.observations.subscriberCount == 0)
        }
    }

    /// The client connections the server has now (`pg_stat_activity`).
    static func serverConnections() throws -> Int64 {
        let connection = try TestServer.connect()
        defer { connection.close() }
        let result = try connection.execute(
            "SELECT count(*) FROM pg_catalog.pg_stat_activity WHERE backend_type = 'client backend'")
        return try result.int64(0, 0) ?? 0
    }
}

/// Runs `body` with a store, set up, in a new schema; tears it down and drops the schema afterwards.
func withPostgresStoreAsync(_ body: (PostgresDataStore) async throws -> Void) async throws {
    let schema = TestStores.newSchemaName()
    defer { try? TestStores.drop(schema) }
    let store = PostgresDataStore(url: try TestServer.url(), options: TestStores.quietOptions { $0.schema = schema })
    try store.setup()
    defer { try? store.tearDown() }
    try await body(store)
}
