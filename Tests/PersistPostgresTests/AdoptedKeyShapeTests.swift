import Persist
import PersistConformance
import PersistPostgres
import Testing

/// A row of the keyless `log` table as a typed entity: its identifier is the row location.
private struct LogEntry: DataStoreEntity {
    static let itemType = "log"
    var id: Int64
    var at: Int?
    var message: String?
}

@Suite("Live queries and typed entities over composite-keyed and keyless PostgreSQL tables")
struct AdoptedKeyShapeTests {
    @Test("a live query over playlist_track sees a write's composite identifiers")
    func liveQuery() async throws {
        let schema = TestStores.newSchemaName()
        defer { try? TestStores.drop(schema) }
        let connection = try TestServer.connect()
        defer { connection.close() }
        _ = try connection.executeScript("CREATE SCHEMA \(schema); SET search_path TO \(schema); \(CompositeKeyTests.chinook)")
        let store = PostgresDataStore(url: try TestServer.url(), options: TestStores.quietOptions { $0.schema = schema })
        try store.setup()
        defer { try? store.tearDown() }
        let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "playlist_track")))
        try await recorder.waitFor { $0.last?.count == 4 }
        try store.writeSync { accessor in
            try accessor.insert(Item(itemType: "playlist_track", id: CompositeKeyTests.pair(0, 1)))
            _ = try accessor.deleteItem(ofType: "playlist_track", id: CompositeKeyTests.pair(8, 3402))
        }
        try await recorder.waitFor {
            $0.last?.map(\.id) == [CompositeKeyTests.pair(0, 1), CompositeKeyTests.pair(1, 10),
                                   CompositeKeyTests.pair(1, 3389), CompositeKeyTests.pair(1, 3402)]
        }
        await recorder.cancel()
    }

    @Test("typed entities read every row of a keyless table, and their writes are refused")
    func keylessEntities() throws {
        try withPostgresStore(creatingWith: KeylessTableTests.log) { store, _ throws in
            let entries = try store.read { try $0.getAll(LogEntry.self) }
            #expect(entries.map(\.message) == ["start", "tick", "tick", nil])
            let first = try #require(entries.first)
            #expect(try store.read { try $0.getById(LogEntry.self, id: first.id) }?.message == "start")
            let error = expectError(.unsupported) {
                try store.writeSync { try $0.save(LogEntry(id: first.id, at: 0, message: "changed")) }
            }
            #expect(error?.message.contains("ADD PRIMARY KEY") == true)
        }
    }
}
