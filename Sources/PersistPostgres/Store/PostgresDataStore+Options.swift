import Foundation
import Logging
import Persist

extension PostgresDataStore {
    /// How a ``PostgresDataStore`` connects and uses its database.
    ///
    /// ```swift
    /// let options = PostgresDataStore.Options(schema: "shop", durability: .full, lockTimeout: .seconds(2))
    /// let store = PostgresDataStore(url: "postgresql://app@db.example.com/main", options: options)
    /// ```
    public struct Options: Sendable {
        /// The schema holding the store's tables; `nil` takes the URL's `?schema=`, which is
        /// `public` unless the URL names another. The store creates it with its first table.
        public var schema: String?
        /// How many idle reader connections the store keeps open for reuse. More are opened while
        /// more read blocks run at once, and closed when they end.
        public var readerConnections: Int
        /// How durable a returned `writeSync` is: `.normal` commits with
        /// `synchronous_commit = local` (flushed to the server's own disk, which survives a crash
        /// of the client or the server), `.full` with `synchronous_commit = on` (also replicated to
        /// any synchronous standby the server has).
        public var durability: Durability
        /// How long to wait for the server when connecting; `nil` takes the URL's
        /// `connect_timeout`, or 10 seconds. Live queries wait as long for a server that went
        /// away (restarted, or stopped) before they end with the error.
        public var connectTimeout: Duration?
        /// How long a block waits for a lock another connection holds (the write lock of
        /// another process writing to the same schema, a table another transaction alters)
        /// before failing with `DataStoreError.Code.locked`; `nil` waits as long as it takes.
        public var lockTimeout: Duration?
        /// How long one statement may run before the server cancels it, failing the block with
        /// an error that says "statement timeout"; `nil` lets statements run as long as they take.
        public var statementTimeout: Duration?
        /// Where the store logs: connections and schema changes at debug level, reconnections
        /// (after the server restarted or ended a session) at notice level, the server's warnings
        /// as warnings, and failures of asynchronous writes nobody waited
        /// for as errors. Never a password. The default logs nothing.
        public var logger: Logger
        /// How often a store with live queries (`observe`) looks for commits other stores and
        /// processes made to its schema through Persist: the bound on how late they are seen.
        ///
        /// ```swift
        /// let options = PostgresDataStore.Options(changePollInterval: .milliseconds(20))
        /// ```
        public var changePollInterval: Duration

        /// Options; every argument has a default.
        public init(
            schema: String? = nil,
            readerConnections: Int = 4,
            durability: Durability = .normal,
            connectTimeout: Duration? = nil,
            lockTimeout: Duration? = .seconds(10),
            statementTimeout: Duration? = nil,
            logger: Logger = Logger(label: "persist.postgres", factory: { _ in SwiftLogNoOpLogHandler() }),
            changePollInterval: Duration = .milliseconds(50)
        ) {
            self.changePollInterval = changePollInterval
            self.schema = schema
            self.readerConnections = readerConnections
            self.durability = durability
            self.connectTimeout = connectTimeout
            self.lockTimeout = lockTimeout
            self.statementTimeout = statementTimeout
            self.logger = logger
        }

        /// Throws `invalidArgument` for a negative reader count, a timeout that is not longer
        /// than zero, or a schema name PostgreSQL cannot hold.
        func validate(location: String) throws {
            func invalid(_ message: String) -> DataStoreError {
                DataStoreError(.invalidArgument, "\(message) for the PostgreSQL store at \(location)", path: location)
            }
            if readerConnections < 0 {
                throw invalid("the reader connection count is \(readerConnections); give 0 or more")
            }
            if changePollInterval <= .zero {
                throw invalid("the change poll interval is \(changePollInterval); give a duration longer than zero")
            }
            for (name, timeout) in [("connect", connectTimeout), ("lock", lockTimeout), ("statement", statementTimeout)] {
                if let timeout, timeout <= .zero {
                    throw invalid("the \(name) timeout is \(timeout); give a duration longer than zero, or nil")
                }
            }
            if let schema {
                if schema.isEmpty || schema.containsNUL || schema.utf8.count > SQLName.maximumBytes {
                    throw invalid("the schema name \(String(reflecting: schema)) is empty, contains NUL or is longer "
                        + "than \(SQLName.maximumBytes) bytes")
                }
            }
        }
    }
}
