import Persist
import PersistSQLite
import PersistTestSupport
import Testing

/// The SQLite engine offers its fast paths through the engine protocols' optional members, which
/// its types answer by conforming: a lost conformance would quietly take the general path.
@Suite("SQLite's engine, reader and writer are seen with their capabilities")
struct SQLiteCapabilityTests {
    @Test("bulk loading, external changes, row streaming and entity rows")
    func capabilities() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = SQLiteDataStore(path: directory.path("capabilities.sqlite"))
        try store.setup()
        defer { try? store.tearDown() }
        #expect(try EngineCapabilityNames.of(store.scheduler.engine) == [
            "engine.bulkLoading", "engine.externalChanges", "reader.rowStreaming", "reader.entityRows",
            "reader.schemaDescribing", "writer.rowStreaming", "writer.entityRows", "writer.schemaDescribing",
            "writer.schemaRecreating", "writer.bulkLoader", "writer.entityRowWriting",
        ])
    }
}
