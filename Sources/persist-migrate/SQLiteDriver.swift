import Logging
import Persist
import PersistSQLite

/// SQLite databases, through `SQLiteDataStore`.
struct SQLiteDriver: FileStoreDriver {
    let plan: StorePlan
    let logger: Logger

    /// How long to wait for another process's lock before reporting `locked`.
    static let busyTimeout = Duration.seconds(2)

    /// A database in WAL mode without a log is complete by itself: it is read as an unchanging
    /// file, so that nothing is created beside it, and checked before the target commits not to
    /// have changed.
    func openSource(at path: String, signals: SignalWatcher) throws -> OpenedSource {
        var fingerprint: SourceFingerprint?
        if case .sqlite(wal: true) = plan.finding, !FileSystem.exists(plan.path + SQLiteDataStore.logSuffix),
           !FileSystem.exists(plan.path + SQLiteDataStore.sharedMemorySuffix) {
            fingerprint = SourceFingerprint(path: plan.path)
        }
        let store = SQLiteDataStore(path: path, options: .init(
            busyTimeout: Self.busyTimeout, readOnly: true, createIfMissing: false, readerPoolSize: 1,
            readsUnchangingFile: fingerprint != nil, logger: logger))
        try store.setup()
        guard let fingerprint else { return OpenedSource(store: store, checkUnchanged: nil) }
        let sourcePath = plan.path
        return OpenedSource(store: store, checkUnchanged: { try fingerprint.check(sourcePath) })
    }

    /// An existing file is another program's database: it keeps its journal mode, so that a run
    /// that stops, fails or is a dry run leaves it as it was, and a finished one changes only its rows.
    func openTarget(at path: String, create: Bool, privateFile: Bool, signals: SignalWatcher) throws -> any DataStore {
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

    /// An existing database takes the copy in one transaction; a new one is staged, and written
    /// in one block unless `--batch-size` says otherwise: SQLite then writes each page once.
    var targetStrategy: TargetStrategy {
        plan.exists ? .oneTransaction : .stagedFile(finalPath: finalPath, inOneBlock: true, copyExisting: nil)
    }

    /// The tables without a usable key or whose names are ambiguous, views, and virtual tables.
    /// Those without a usable key or with ambiguous names hold rows the copy would leave behind.
    func skippedTables(of store: any DataStore) throws -> [LeftOutTable] {
        guard let sqlite = store as? SQLiteDataStore else { return [] }
        return try sqlite.skippedTables().compactMap { table in
            switch table.reason {
            case .noUsableKey, .ambiguousName:
                return LeftOutTable(name: table.name, reason: table.reason.description, holdsRows: true)
            case .view: return LeftOutTable(name: table.name, reason: "a view, \(Self.viewLeftBehind)", holdsRows: false)
            case .virtualTable:
                return LeftOutTable(name: table.name, reason: "a virtual table, whose rows its module keeps (an FTS table's "
                                        + "in its shadow tables) and a copy does not carry (recreate it with its SQL and "
                                        + "fill it again)", holdsRows: false)
            default: return nil
            }
        }
    }
}
