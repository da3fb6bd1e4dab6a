import Logging
import Persist
import PersistSQLite

/// SQLite databases, through `SQLiteDataStore`.
struct SQLiteDriver: StoreDriver {
    let logger: Logger

    /// How long to wait for another process's lock before reporting `locked`.
    static let busyTimeout = Duration.seconds(2)

    func openReadOnly(path: String, layout: Layout) throws -> any DataStore {
        let store = SQLiteDataStore(path: path, options: .init(
            busyTimeout: Self.busyTimeout, readOnly: true, createIfMissing: false, readerPoolSize: 1, logger: logger))
        try store.setup()
        return store
    }

    func openWritable(path: String, layout: Layout, create: Bool) throws -> any DataStore {
        let store = SQLiteDataStore(path: path, options: .init(
            busyTimeout: Self.busyTimeout, createIfMissing: create, readerPoolSize: 1, logger: logger))
        try store.setup()
        return store
    }

    func companionFiles(of path: String) -> [String] {
        SQLiteDataStore.companionSuffixes.map { path + $0 }
    }

    var existingTargetStrategy: ExistingTargetStrategy { .singleTransaction }
}
