import Persist

/// The capabilities an engine is seen with through the engine protocols' optional members, as
/// names: `engine.bulkLoading`, `reader.rowStreaming`, `writer.entityRowWriting`… (for the
/// yes/no ones, the name of each that answers `true`). A test compares them with the set the
/// engine should have, so that a lost conformance, which would quietly take the general path,
/// fails it.
///
/// ```swift
/// #expect(try EngineCapabilityNames.of(store.scheduler.engine).contains("writer.bulkLoader"))
/// ```
public enum EngineCapabilityNames {
    /// The names of what `engine`, a reader and a writer of it offer. The engine must be open;
    /// the write transaction is rolled back.
    public static func of(_ engine: any DataStoreEngine) throws -> Set<String> {
        var names: Set<String> = []
        if engine.bulkLoading != nil { names.insert("engine.bulkLoading") }
        if engine.externalChanges != nil { names.insert("engine.externalChanges") }
        try engine.read { reader in names.formUnion(reading(reader, as: "reader")) }
        try engine.write { writer in
            names.formUnion(reading(writer, as: "writer"))
            if writer.bulkLoader != nil { names.insert("writer.bulkLoader") }
            if writer.entityRowWriting != nil { names.insert("writer.entityRowWriting") }
            if writer.schemaRecreating != nil { names.insert("writer.schemaRecreating") }
            return ((), false)
        }
        return names
    }

    private static func reading(_ reader: any StoreReader, as role: String) -> Set<String> {
        var names: Set<String> = []
        if reader.rowStreaming != nil { names.insert(role + ".rowStreaming") }
        if reader.entityRows != nil { names.insert(role + ".entityRows") }
        if reader.schemaDescribing != nil { names.insert(role + ".schemaDescribing") }
        if reader.comparesTypeNamesByBytes { names.insert(role + ".comparesTypeNamesByBytes") }
        return names
    }
}
