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
