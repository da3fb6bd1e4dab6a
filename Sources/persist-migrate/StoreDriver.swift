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

    /// Opens an existing store without ever writing to it, set up.
    func openReadOnly(path: String, layout: Layout) throws -> any DataStore
    /// Opens a store for writing, set up; creates it when `create` is true.
    func openWritable(path: String, layout: Layout, create: Bool) throws -> any DataStore
    /// Files that belong to the store at `path` besides the file itself (journals, write-ahead logs).
    func companionFiles(of path: String) -> [String]
    /// How an existing target of this kind receives a copy.
    var existingTargetStrategy: ExistingTargetStrategy { get }
}

/// The drivers by kind.
enum StoreDrivers {
    static func driver(for kind: StoreSpec.Kind, logger: Logger) -> any StoreDriver {
        switch kind {
        case .sqlite: SQLiteDriver(logger: logger)
        case .gdbm: GDBMDriver(logger: logger)
        }
    }
}
