import Foundation
import Logging
import Persist

extension SQLiteDataStore {
    /// How an ``SQLiteDataStore`` opens and uses its database.
    ///
    /// ```swift
    /// let store = SQLiteDataStore(path: "app.sqlite", options: .init(durability: .full, busyTimeout: .seconds(2)))
    /// let archive = SQLiteDataStore(path: "old.sqlite", options: .init(readOnly: true, createIfMissing: false))
    /// ```
    public struct Options: Sendable {
        /// How durable a returned `writeSync` is: `.normal` runs WAL with `synchronous=NORMAL`
        /// (survives a crash of the process), `.full` with `synchronous=FULL` (also survives power loss).
        public var durability: Durability
        /// How long to wait for a lock another process (or legacy connection) holds, before
        /// failing with `DataStoreError.Code.locked`; zero fails at once. Kept to the millisecond.
        public var busyTimeout: Duration
        /// Opens the database read-only: nothing is ever written, not even the switch to WAL mode,
        /// and write blocks throw `DataStoreError.Code.readOnly`.
        public var readOnly: Bool
        /// Creates the file when it does not exist; otherwise a missing file is `notFound`.
        public var createIfMissing: Bool
        /// How many idle reader connections to keep open for reuse. More are opened while many reads
        /// run at once.
        public var readerPoolSize: Int
        /// How often a store with live queries checks whether another process (or a connection
        /// other than the store's own) committed: the bound on how late such a commit reaches
        /// `observe`. Nothing is polled while no live query is open.
        ///
        /// ```swift
        /// let store = SQLiteDataStore(path: "app.sqlite", options: .init(changePollInterval: .milliseconds(20)))
        /// ```
        public var changePollInterval: Duration
        /// Where the store logs: schema changes (tables and columns created, tables adopted or
        /// skipped) and lifecycle events at debug level, a journal mode that could not be changed as
        /// a warning, and failures of asynchronous writes nobody waited for as errors. The default
        /// logs nothing.
        public var logger: Logger
        /// With ``readOnly``: opens the file with SQLite's `immutable` flag, so that nothing is
        /// created beside it (no `-wal`, no `-shm`) and no lock is taken: for a database on
        /// read-only media, or a copy that must stay exactly as it is. A database in WAL mode is
        /// read without its log, as the file itself holds it.
        ///
        /// Only for a file that nothing writes while the store is open: SQLite neither notices nor
        /// prevents a change, and reads may then give wrong results or fail as `corrupt`. Without
        /// ``readOnly``, setup throws `invalidArgument`.
        ///
        /// ```swift
        /// let archive = SQLiteDataStore(path: "/mnt/archive/2019.sqlite",
        ///                               options: .init(readOnly: true, readsUnchangingFile: true))
        /// ```
        public var readsUnchangingFile: Bool
        /// Keeps the journal mode the database has instead of switching it to WAL mode: for a
        /// database that other programs share and expect as they left it (an SQLite older than
        /// 3.7, or a network file system, where WAL mode does not work). A new file gets SQLite's
        /// default, `delete`. In a rollback-journal mode, reads and writes wait for each other's
        /// locks, up to ``busyTimeout``, instead of running side by side.
        ///
        /// ```swift
        /// let shared = SQLiteDataStore(path: "legacy.sqlite", options: .init(keepsJournalMode: true))
        /// ```
        public var keepsJournalMode: Bool

        /// Options; every argument has a default.
        public init(
            durability: Durability = .normal,
            busyTimeout: Duration = .seconds(5),
            readOnly: Bool = false,
            createIfMissing: Bool = true,
            readerPoolSize: Int = 4,
            changePollInterval: Duration = .milliseconds(50),
            readsUnchangingFile: Bool = false,
            keepsJournalMode: Bool = false,
            logger: Logger = Logger(label: "persist.sqlite", factory: { _ in SwiftLogNoOpLogHandler() })
        ) {
            self.durability = durability
            self.busyTimeout = busyTimeout
            self.readOnly = readOnly
            self.createIfMissing = createIfMissing
            self.readerPoolSize = readerPoolSize
            self.changePollInterval = changePollInterval
            self.readsUnchangingFile = readsUnchangingFile
            self.keepsJournalMode = keepsJournalMode
            self.logger = logger
        }

        /// Throws `invalidArgument` for an empty path, a negative busy timeout, a negative pool size,
        /// a poll interval that is not positive, or ``readsUnchangingFile`` without ``readOnly``.
        func validate(path: String) throws {
            if path.isEmpty {
                throw DataStoreError(.invalidArgument, "the SQLite store was given an empty path; give the path of "
                    + "its database file, or use SQLiteDataStore.inMemory() for a private database", path: path)
            }
            if busyTimeout < .zero {
                throw DataStoreError(.invalidArgument, "the busy timeout for the SQLite database at \(path) is "
                    + "\(busyTimeout); give zero or more", path: path)
            }
            if changePollInterval <= .zero {
                throw DataStoreError(.invalidArgument, "the change poll interval for the SQLite database at \(path) is "
                    + "\(changePollInterval); give a positive duration", path: path)
            }
            if readerPoolSize < 0 {
                throw DataStoreError(.invalidArgument, "the reader pool size for the SQLite database at \(path) is "
                    + "\(readerPoolSize); give 0 or more", path: path)
            }
            if readsUnchangingFile && !readOnly {
                throw DataStoreError(.invalidArgument, "the SQLite database at \(path) is to be read as an unchanging "
                    + "file, which only a read-only store can do; set readOnly too", path: path)
            }
        }
    }
}
