import Logging

extension PGConnection {
    /// How a connection is made and what it logs.
    package struct Options: Sendable {
        /// How long to wait for the server when connecting; the URL's `connect_timeout`, else 10 seconds.
        package var connectTimeout: Duration?
        /// How many named prepared statements a connection keeps on the server.
        package var statementCacheCapacity: Int
        /// Where connects, reconnects and the server's notices and warnings go. Never the password.
        package var logger: Logger

        package init(connectTimeout: Duration? = nil, statementCacheCapacity: Int = 128,
                     logger: Logger = Logger(label: "persist.postgres")) {
            self.connectTimeout = connectTimeout
            self.statementCacheCapacity = statementCacheCapacity
            self.logger = logger
        }

        /// The timeout used for `url`.
        func connectTimeout(for url: PostgresURL) -> Duration {
            connectTimeout ?? url.connectTimeout ?? .seconds(10)
        }
    }
}
