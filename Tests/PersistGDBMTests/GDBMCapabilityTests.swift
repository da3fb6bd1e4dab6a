import Persist
import PersistGDBM
import PersistTestSupport
import Testing

/// The GDBM engine offers its fast paths through the engine protocols' optional members, which
/// its types answer by conforming or by a member of the requirement's name: a lost one would
/// quietly take the general path.
@Suite("GDBM's engine, reader and writer are seen with their capabilities")
struct GDBMCapabilityTests {
    @Test("external changes, row streaming, bulk inserts, entity rows and type names compared by bytes")
    func capabilities() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = GDBMDataStore(path: directory.path("capabilities.gdbm"))
        try store.setup()
        defer { try? store.tearDown() }
        #expect(try EngineCapabilityNames.of(store.scheduler.engine) == [
            "engine.externalChanges", "reader.rowStreaming", "reader.entityRows", "reader.schemaDescribing",
            "reader.comparesTypeNamesByBytes", "writer.rowStreaming", "writer.entityRows", "writer.schemaDescribing",
            "writer.schemaRecreating", "writer.comparesTypeNamesByBytes", "writer.bulkLoader", "writer.entityRowWriting",
        ])
    }
}
