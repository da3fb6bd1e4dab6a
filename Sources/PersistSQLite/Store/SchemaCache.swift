import PersistSQL

/// The schemas of the last few `PRAGMA schema_version`s, shared by every connection of a store.
typealias SQLiteSchemaCache = SchemaCache<DatabaseSchema>

extension SchemaCache where Schema == DatabaseSchema {
    /// The schema of `version`, which the transaction open on `connection` reads: loaded on the
    /// connection when not cached. SQLite reads its own copy of the schema again first when the
    /// connection last worked with another version.
    func schema(on connection: SQLiteConnection, version: Int64) throws -> DatabaseSchema {
        try connection.catchUp(toSchemaVersion: version)
        if let schema = schema(for: version) { return schema }
        let schema = try SchemaLoader.load(connection)
        store(schema, for: version)
        return schema
    }
}
