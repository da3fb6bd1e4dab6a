import Foundation
import Logging
import Persist
import PersistPostgres

/// PostgreSQL databases, through `PostgresDataStore`, named by their URL. A source is only read
/// (every read block is a `READ ONLY` snapshot, and opening creates nothing); a target receives
/// the whole copy in one transaction, so that it is as it was or complete whatever happens to the
/// tool. Opening waits for the server up to its connect timeout, unless a signal arrives.
struct PostgresDriver: StoreDriver {
    /// The database, with its password (for connecting only).
    let url: PostgresURL
    let logger: Logger

    /// How the error of a source schema that does not exist begins, for the hint that fits it.
    static let missingSchemaPrefix = "the source schema "

    /// A schema that does not exist is `notFound` (a misspelled `?schema=`), never an empty store.
    func openSource(at path: String, signals: SignalWatcher) throws -> OpenedSource {
        let store = try signals.interruptible({ [url, logger] in
            let store = try Self.open(url, logger: logger)
            guard try store.schemaExists() else {
                try? store.tearDown()
                throw DataStoreError(.notFound, Self.missingSchemaPrefix + "\(String(reflecting: url.schema)) does not "
                                        + "exist in the PostgreSQL database at \(url)", path: url.description)
            }
            return store
        }, abandoned: { try? $0.tearDown() })
        return OpenedSource(store: store, checkUnchanged: nil)
    }

    func openTarget(at path: String, create: Bool, privateFile: Bool, signals: SignalWatcher) throws -> any DataStore {
        try signals.interruptible({ [url, logger] in try Self.open(url, logger: logger) }, abandoned: { try? $0.tearDown() })
    }

    /// Opens the database of `url`, set up, with one reader connection (the migration reads on one
    /// thread).
    private static func open(_ url: PostgresURL, logger: Logger) throws -> PostgresDataStore {
        let store = PostgresDataStore(url: url, options: .init(readerConnections: 1, logger: logger))
        try store.setup()
        return store
    }

    func companionFiles(of path: String) -> [String] { [] }

    var targetStrategy: TargetStrategy { .oneTransaction }

    func removeLeftovers() {}

    /// A server has no folder beside its database: the temporary folder.
    func scratchPlace(for name: String) -> (besides: String, folder: String) {
        (FileManager.default.temporaryDirectory.appendingPathComponent(name).path, "the temporary folder")
    }

    /// Tables without a usable key, inherited or ambiguous ones, views and foreign tables; the
    /// first three hold rows of their own the copy would leave behind.
    func skippedTables(of store: any DataStore) throws -> [LeftOutTable] {
        guard let postgres = store as? PostgresDataStore else { return [] }
        return try postgres.skippedTables().compactMap { table in
            switch table.reason {
            case .noUsableKey, .inheritedFrom, .ambiguousName:
                return LeftOutTable(name: table.name, reason: table.reason.description, holdsRows: true)
            case .view, .materializedView:
                return LeftOutTable(name: table.name, reason: "\(table.reason), \(Self.viewLeftBehind)", holdsRows: false)
            case .foreignTable:
                return LeftOutTable(name: table.name, reason: "a foreign table, whose rows another server holds and a copy "
                                        + "does not carry", holdsRows: false)
            default: return nil
            }
        }
    }

    /// Refuses a source and a target that are one schema of one database reached by two URLs (a
    /// host name and its address, two roles): the copy would read and replace the same tables.
    /// Two URLs the same but for spelling are refused before anything is opened; this catches the
    /// rest. A server that keeps its identity from the role lets the copy go on.
    func checkDistinct(target: any DataStore, source: any DataStore, sourcePlan: StorePlan) throws {
        guard let sourceURL = sourcePlan.postgres, let source = source as? PostgresDataStore,
              let target = target as? PostgresDataStore, sourceURL.schema == url.schema,
              let identity = try source.databaseIdentity(), try target.databaseIdentity() == identity else { return }
        throw ToolFailure(.usage, code: "sameStore",
                          "the source \(sourceURL) and the target \(url) are the same PostgreSQL schema, "
                            + "\(String(reflecting: sourceURL.schema)) of one database, reached by two URLs",
                          hint: "copy to another schema (?schema=NAME) or database")
    }
}
