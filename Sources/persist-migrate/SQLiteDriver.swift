import Logging
import Persist
import PersistSQLite

/// SQLite databases, through `SQLiteDataStore`.
struct SQLiteDriver: StoreDriver {
    let logger: Logger

    /// How long to wait for another process's lock before reporting `locked`.
    static let busyTimeout = Duration.seconds(2)

    func openReadOnly(path: String, layout: Layout, unchanging: Bool) throws -> any DataStore {
        let store = SQLiteDataStore(path: path, options: .init(
            busyTimeout: Self.busyTimeout, readOnly: true, createIfMissing: false, readerPoolSize: 1,
            readsUnchangingFile: unchanging, logger: logger))
        try store.setup()
        return store
    }

    func openWritable(path: String, layout: Layout, create: Bool, privateFile: Bool) throws -> any DataStore {
        // An existing file is another program's database: it keeps its journal mode, so that a
        // run that stops, fails or is a dry run leaves it as it was, and a finished one changes
        // only its rows.
        let options = SQLiteDataStore.Options(busyTimeout: Self.busyTimeout, createIfMissing: create, readerPoolSize: 1,
                                              keepsJournalMode: !create && !privateFile, logger: logger)
        let store = privateFile ? SQLiteDataStore.buildingPrivateFile(at: path, options: options)
            : SQLiteDataStore(path: path, options: options)
        try store.setup()
        return store
    }

    func companionFiles(of path: String) -> [String] {
        SQLiteDataStore.companionSuffixes.map { path + $0 }
    }

    var existingTargetStrategy: ExistingTargetStrategy { .singleTransaction }

    var writesInOneBlock: Bool { true }
}
