import Persist
import PersistPostgres
import PersistTestSupport
import Testing

/// The PostgreSQL engine offers its fast paths through the engine protocols' optional members,
/// which its types answer by conforming or by a member of the requirement's name: a lost one
/// would quietly take the general path. (Its transient failures: `ConnectionLimitTests`.)
@Suite("PostgreSQL's engine, reader and writer are seen with their capabilities")
struct PostgresCapabilityTests {
    @Test("bulk loading, external changes, row streaming, entity rows and keys numbered by a sequence")
    func capabilities() throws {
        try withPostgresStore(creatingWith: "CREATE TABLE \"Ticket\" (id serial PRIMARY KEY, title text)") { store, _ in
            let engine = store.scheduler.engine
            #expect(try EngineCapabilityNames.of(engine) == [
                "engine.bulkLoading", "engine.externalChanges", "reader.rowStreaming", "reader.entityRows",
                "reader.schemaDescribing", "writer.rowStreaming", "writer.entityRows", "writer.schemaDescribing",
                "writer.schemaRecreating", "writer.bulkLoader", "writer.entityRowWriting",
            ])
            try engine.write { writer in
                #expect(!writer.takesEachIntegerIDFromSequence(ofType: "Ticket"))
                _ = try writer.nextIntegerID(ofType: "Ticket")
                #expect(writer.takesEachIntegerIDFromSequence(ofType: "Ticket"))
                return ((), false)
            }
        }
    }
}
