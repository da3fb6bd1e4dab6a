import Logging
import Persist
import PersistSQL

/// What a block's reader or writer needs from its store beside its session: names for messages,
/// how to read the schema, and where to publish it.
struct PostgresEnvironment {
    /// The store's location, for messages.
    let location: String
    /// The schema holding the store's tables.
    let schemaName: String
    /// Whether the database's default collation compares bytes.
    let defaultCollationIsBytewise: Bool
    let cache: SchemaCache<StoreSchema>
    /// The cache's generation when the block began.
    let generation: Int
    let logger: Logger

    /// A loader running its statements with `run`.
    func loader(_ run: @escaping ([PGCommand]) throws -> [PGResult]) -> SchemaLoader {
        SchemaLoader(run: run, schemaName: schemaName, defaultCollationIsBytewise: defaultCollationIsBytewise)
    }

    /// Publishes a schema a block read: at once from the writer (which reads committed state under
    /// the store's lock), from a reader only when nothing newer was published meanwhile.
    func schemaWasRead(_ schema: StoreSchema, byWriter: Bool) {
        if byWriter {
            cache.publish(schema)
        } else {
            cache.publish(schema, ifStillAt: generation)
        }
    }
}
