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
        /// The database is a new file that only this store uses until it is closed, and that is
        /// thrown away if the work fails (`persist-migrate`'s staging file): write blocks keep their
        /// rollback journal in memory and do not sync, so that each page is written once, and the
        /// file is switched to WAL mode when the store closes. A crash leaves a file to discard.
        package var buildsPrivateFile = false
        /// With ``readOnly``: the file is opened with SQLite's `immutable` flag, so that nothing is
        /// created beside it (no `-wal`, no `-shm`) and no lock is taken. Only for a file that
        /// nothing writes while the store is open; the caller checks that it did not change.
        package var readsUnchangingFile = false
        /// The file keeps the journal mode it has instead of switching to WAL mode: for a database
        /// of other programs that a run must leave as it found it (`persist-migrate`'s existing
        /// target). In a rollback-journal mode, reads and writes wait for each other.
        package var keepsJournalMode = false

        /// Options; every argument has a default.
        public init(
            durability: Durability = .normal,
            busyTimeout: Duration = .seconds(5),
            readOnly: Bool = false,
            createIfMissing: Bool = true,
            readerPoolSize: Int = 4,
            changePollInterval: Duration = .milliseconds(50),
            logger: Logger = Logger(label: "persist.sqlite", factory: { _ in SwiftLogNoOpLogHandler() })
        ) {
            self.durability = durability
            self.busyTimeout = busyTimeout
            self.readOnly = readOnly
            self.createIfMissing = createIfMissing
            self.readerPoolSize = readerPoolSize
            self.changePollInterval = changePollInterval
            self.logger = logger
        }

        /// Throws `invalidArgument` for an empty path, a negative busy timeout, a negative pool size
        /// or a poll interval that is not positive.
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
        }
    }
}
