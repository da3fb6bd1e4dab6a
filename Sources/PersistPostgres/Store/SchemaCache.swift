import Persist

/// The schema every block of a store starts from, shared by its connections.
///
/// The writer publishes the schema its block leaves (after committing), or the one it read when
/// the catalog had changed; a read block that had to read the schema again publishes it only if
/// nothing was published since the block began, so that an older snapshot never replaces a
/// newer schema.
final class SchemaCache: Sendable {
    private let state = Locked<(schema: StoreSchema?, generation: Int)>((nil, 0))

    /// The current schema and its generation (which grows with every publication).
    var current: (schema: StoreSchema?, generation: Int) { state.value }

    /// Publishes a schema.
    func publish(_ schema: StoreSchema) {
        state.withLock { state in
            state.schema = schema
            state.generation += 1
        }
    }

    /// Publishes a schema unless another was published since `generation`.
    func publish(_ schema: StoreSchema, ifStillAt generation: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            state.schema = schema
            state.generation += 1
        }
    }

    /// Forgets the schema (the store closed).
    func removeAll() {
        state.withLock { state in
            state.schema = nil
            state.generation += 1
        }
    }
}
