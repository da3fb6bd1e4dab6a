import Logging
import Persist

/// How the tool opens, fills and finishes one store. There is a driver per kind of store, made
/// for the store the command line names (``StorePlan``), and it knows what that kind needs: the
/// layout of a GDBM file, the journal of an SQLite database, the URL of a PostgreSQL database.
protocol StoreDriver: Sendable {
    /// Opens the store to copy from, set up, never writing to it. `path` is the file to read: the
    /// source's own, or a copy of it that `--recover` recovered (a database on a server has none).
    /// A wait for a server stops when `signals` receives one.
    func openSource(at path: String, signals: SignalWatcher) throws -> OpenedSource
    /// Opens the store to copy into, set up. `path` is the target's own file or its staging copy;
    /// `create` makes it; `privateFile` says it is a staging file nobody else uses, thrown away on
    /// failure, so that it is built without journals.
    func openTarget(at path: String, create: Bool, privateFile: Bool, signals: SignalWatcher) throws -> any DataStore
    /// Files that belong to the store at `path` besides the file itself (journals, write-ahead logs).
    func companionFiles(of path: String) -> [String]
    /// How the target receives the copy without ever being left half-written.
    var targetStrategy: TargetStrategy { get }
    /// Removes what runs killed before they finished left beside the target (staging files).
    func removeLeftovers()
    /// Where a run keeps a scratch file made from the source `name` (a recovered copy): beside the
    /// path it gives, with how messages name that folder.
    func scratchPlace(for name: String) -> (besides: String, folder: String)
    /// The tables of a source that a copy leaves out, each with why and whether it holds rows of its own.
    func skippedTables(of store: any DataStore) throws -> [LeftOutTable]
    /// Throws when `target`, which this driver opened, is the store `source` of `sourcePlan`
    /// reached another way (two URLs of one database), which no name on the command line shows.
    func checkDistinct(target: any DataStore, source: any DataStore, sourcePlan: StorePlan) throws
}

extension StoreDriver {
    func skippedTables(of store: any DataStore) throws -> [LeftOutTable] { [] }

    func checkDistinct(target: any DataStore, source: any DataStore, sourcePlan: StorePlan) throws {}

    /// Why a view is left out of a copy.
    static var viewLeftBehind: String { "whose definition a copy does not carry (recreate it with its SQL)" }
}

/// A source opened to copy from.
struct OpenedSource {
    let store: any DataStore
    /// Throws when the source changed while it was read, for a source that no lock or snapshot
    /// keeps unchanged; run before the target commits.
    let checkUnchanged: (@Sendable () throws -> Void)?
}

/// How a target receives the copy without ever being left half-written.
enum TargetStrategy: Sendable {
    /// The store takes the whole copy in one transaction where it is, which it commits without
    /// holding it in memory (a PostgreSQL database, an existing SQLite database).
    case oneTransaction
    /// A file is built in a staging copy beside `finalPath` and renamed over it when complete. An
    /// existing file is first copied to the staging path by `copyExisting`. `inOneBlock`: without
    /// `--batch-size`, the copy goes in one write block (the store commits one huge block without
    /// holding it in memory), else in batches.
    case stagedFile(finalPath: String, inOneBlock: Bool,
                    copyExisting: (@Sendable (_ path: String, _ copy: String) throws -> Void)?)
}

/// The drivers by store.
enum StoreDrivers {
    /// The driver of the store `plan` names.
    static func driver(for plan: StorePlan, logger: Logger) throws -> any StoreDriver {
        switch plan.kind {
        case .sqlite: return SQLiteDriver(plan: plan, logger: logger)
        case .gdbm: return GDBMDriver(plan: plan, logger: logger)
        case .postgresql:
            guard let url = plan.postgres else {
                throw DataStoreError(.misuse, "the PostgreSQL database \(plan.path) was named without a URL")
            }
            return PostgresDriver(url: url, logger: logger)
        }
    }
}
