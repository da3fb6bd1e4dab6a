import Persist

/// The schemas of a store's last few schema versions, shared by its connections, so that a block
/// loads the schema only when it changed.
///
/// SQLite keys schemas by `PRAGMA schema_version`; PostgreSQL publishes the schema its writer left
/// or a block read, each publication a new version. Every change, forgetting included, moves
/// ``generation`` on, so a block that read a schema can publish it only if nothing was published
/// since it began, and an older snapshot never replaces a newer schema.
///
/// ```swift
/// let cache = SchemaCache<DatabaseSchema>(capacity: 4)
/// if let schema = cache.schema(for: version) { … } else { cache.store(try load(), for: version) }
/// ```
package final class SchemaCache<Schema: Sendable>: Sendable {
    private struct State {
        /// Newest last.
        var entries: [(version: Int64, schema: Schema)] = []
        var generation = 0
    }

    private let state = Locked(State())
    private let capacity: Int

    package init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// The schema stored for `version`, if any.
    package func schema(for version: Int64) -> Schema? {
        state.withLock { state in state.entries.last { $0.version == version }?.schema }
    }

    /// Remembers the schema of `version`, forgetting the oldest beyond the capacity.
    package func store(_ schema: Schema, for version: Int64) {
        state.withLock { insert(schema, for: version, into: &$0) }
    }

    private func insert(_ schema: Schema, for version: Int64, into state: inout State) {
        state.entries.removeAll { $0.version == version }
        state.entries.append((version, schema))
        if state.entries.count > capacity { state.entries.removeFirst() }
        state.generation += 1
    }

    /// The newest schema and the generation (which grows with every change).
    package var current: (schema: Schema?, generation: Int) {
        state.withLock { ($0.entries.last?.schema, $0.generation) }
    }

    /// Stores `schema` as the newest, under the next generation.
    package func publish(_ schema: Schema) {
        state.withLock { insert(schema, for: Int64($0.generation + 1), into: &$0) }
    }

    /// Publishes `schema` unless another change came since `generation`.
    package func publish(_ schema: Schema, ifStillAt generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            insert(schema, for: Int64(generation + 1), into: &state)
        }
    }

    /// Forgets every schema (the store closed, and its database may change meanwhile).
    package func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.generation += 1
        }
    }
}
