import Logging
import Persist
import PersistPostgres

/// PostgreSQL databases, through `PostgresDataStore`. A source is only read (every read block is a
/// `READ ONLY` snapshot, and opening creates nothing); a target receives the whole copy in one
/// transaction, so that it is as it was or complete whatever happens to the tool.
enum PostgresDriver {
    /// Opens the database of `url`, set up, with one reader connection (the migration reads on one
    /// thread).
    static func open(_ url: PostgresURL, logger: Logger) throws -> PostgresDataStore {
        let store = PostgresDataStore(url: url, options: .init(readerConnections: 1, logger: logger))
        try store.setup()
        return store
    }

    /// How the error of a source schema that does not exist begins, for the hint that fits it.
    static let missingSchemaPrefix = "the source schema "

    /// Opens the database of `url` to copy from: a schema that does not exist is `notFound` (a
    /// misspelled `?schema=`), never an empty store.
    static func openSource(_ url: PostgresURL, logger: Logger) throws -> PostgresDataStore {
        let store = try open(url, logger: logger)
        guard try store.schemaExists() else {
            try? store.tearDown()
            throw DataStoreError(.notFound, missingSchemaPrefix + "\(String(reflecting: url.schema)) does not exist in the "
                                    + "PostgreSQL database at \(url)", path: url.description)
        }
        return store
    }

    /// Refuses a source and a target that are one schema of one database reached by two URLs (a
    /// host name and its address, two roles): the copy would read and replace the same tables.
    /// Two URLs the same but for spelling are refused before anything is opened; this catches
    /// the rest. A server that keeps its identity from the role lets the copy go on.
    static func checkDistinct(
        source: PostgresDataStore, _ sourceURL: PostgresURL, target: PostgresDataStore, _ targetURL: PostgresURL
    ) throws {
        guard sourceURL.schema == targetURL.schema, let identity = try source.databaseIdentity(),
              try target.databaseIdentity() == identity else { return }
        throw ToolFailure(.usage, code: "sameStore",
                          "the source \(sourceURL) and the target \(targetURL) are the same PostgreSQL schema, "
                            + "\(String(reflecting: sourceURL.schema)) of one database, reached by two URLs",
                          hint: "copy to another schema (?schema=NAME) or database")
    }
}
