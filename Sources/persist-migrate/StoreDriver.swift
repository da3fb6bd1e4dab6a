import Logging
import Persist
import PersistGDBM

/// How an existing target receives a copy without ever being left half-written.
enum ExistingTargetStrategy: Sendable {
    /// The store commits one huge write block without holding it in memory (SQLite): the copy
    /// goes straight into the target as a single transaction.
    case singleTransaction
    /// The store is copied beside itself with this function, filled, and swapped in.
    case stagedCopy(@Sendable (_ path: String, _ copy: String, _ layout: GDBMDataStore.Options.Layout) throws -> Void)
}

/// How the tool opens, copies and finishes stores of one kind.
protocol StoreDriver: Sendable {
    /// The layout of a GDBM file (other kinds ignore it).
    typealias Layout = GDBMDataStore.Options.Layout

    /// Opens an existing store without ever writing to it, set up. `unchanging`: the file is
    /// known to be complete by itself and is checked afterwards not to have changed (an SQLite
    /// database in WAL mode without a log), so that nothing need be created beside it.
    func openReadOnly(path: String, layout: Layout, unchanging: Bool) throws -> any DataStore
    /// Opens a store for writing, set up; creates it when `create` is true. `privateFile`: a
    /// staging file nobody else uses and that is thrown away on failure, built without journals.
    func openWritable(path: String, layout: Layout, create: Bool, privateFile: Bool) throws -> any DataStore
    /// Files that belong to the store at `path` besides the file itself (journals, write-ahead logs).
    func companionFiles(of path: String) -> [String]
    /// How an existing target of this kind receives a copy.
    var existingTargetStrategy: ExistingTargetStrategy { get }
    /// Whether the tool writes into a target of this kind in one write block (the store commits
    /// one huge block without holding it in memory) rather than in batches.
    var writesInOneBlock: Bool { get }
}

/// The drivers by kind.
enum StoreDrivers {
    /// The driver of a kind of file (PostgreSQL databases go through ``PostgresDriver``).
    static func driver(for kind: StoreName.Kind, logger: Logger) throws -> any StoreDriver {
        switch kind {
        case .sqlite: SQLiteDriver(logger: logger)
        case .gdbm: GDBMDriver(logger: logger)
        case .postgresql: throw DataStoreError(.misuse, "a PostgreSQL database is no file; it is opened by its URL")
        }
    }
}
