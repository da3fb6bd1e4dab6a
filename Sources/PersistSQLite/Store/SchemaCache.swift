import Persist

/// The schemas of the last few schema versions, shared by every connection of a store, so that a
/// transaction loads the schema only when it changed (`PRAGMA schema_version` tells).
final class SchemaCache: Sendable {
    /// Newest last; schemas are immutable values.
    private let entries = Locked<[(version: Int64, schema: DatabaseSchema)]>([])
    private static let capacity = 4

    /// The schema loaded for `version`, if any.
    func schema(for version: Int64) -> DatabaseSchema? {
        entries.withLock { entries in entries.last { $0.version == version }?.schema }
    }

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

    /// Remembers the schema of `version`, forgetting the oldest beyond a few.
    func store(_ schema: DatabaseSchema, for version: Int64) {
        entries.withLock { entries in
            entries.removeAll { $0.version == version }
            entries.append((version, schema))
            if entries.count > Self.capacity { entries.removeFirst() }
        }
    }

    /// Forgets every schema (the file may change while the store is closed).
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
