import Persist

/// Where a PostgreSQL database is and how to log in: what you pass to open a PostgreSQL store.
///
/// Made from a URL in the form libpq and most tools accept:
///
/// ```swift
/// let url = try PostgresURL("postgresql://app:s3cret@db.example.com:5432/shop?schema=catalog")
/// let local = try PostgresURL("postgres://app@[::1]/shop")                          // port 5432
/// let socket = try PostgresURL("postgresql://app@/shop?host=/var/run/postgresql")  // Unix socket
/// print(url)   // postgresql://app@db.example.com:5432/shop?schema=catalog — never the password
/// ```
///
/// The user name, password and database are percent-decoded, so `%40` is an `@` and `%2F` a `/`.
/// Percent-encode `@ : / ? #` when a password contains them; the parser takes the last `@` as the
/// end of the user and password, so that a password is never taken for a host, port or database
/// and never appears in an error. The same goes for query values: write an `@` in one (a
/// certificate path, say) as `%40`.
///
/// Query parameters: `schema` (default `public`), `host` (the directory of the server's Unix
/// socket, with an empty host before the `/`), `connect_timeout` (whole seconds), `sslmode`,
/// `sslrootcert`, `sslcert` and `sslkey` (as in libpq). Anything else is an error that names it.
///
/// The password is kept for connecting only: ``description``, ``redacted``, ``location``, the
/// debugger's view and every error and log line leave it out.
public struct PostgresURL: Sendable, Hashable {
    /// How to reach the server.
    public enum Host: Sendable, Hashable {
        /// A DNS name or an IPv4 address: `db.example.com`, `127.0.0.1`.
        case name(String)
        /// An IPv6 address, without the brackets of the URL: `::1`.
        case ipv6(String)
        /// The directory holding the server's Unix-domain socket: `/var/run/postgresql`.
        case socketDirectory(String)
    }

    /// The server's host, IPv6 address or socket directory.
    public let host: Host
    /// The TCP port, or the number in the socket's file name for a socket directory; 5432 unless given.
    public let port: Int
    /// The user to log in as; `nil` lets libpq use the operating system's user name.
    public let user: String?
    /// The password, for connecting only. Never printed.
    let password: String?
    /// The database on the server.
    public let database: String
    /// The schema that holds the store's tables: `public` unless the URL says `?schema=NAME`.
    public let schema: String
    /// How long to wait for a connection, from `?connect_timeout=SECONDS`; `nil` when not given.
    public let connectTimeout: Duration?
    /// libpq's TLS settings from the query (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`), by keyword.
    public let tlsSettings: [String: String]

    /// The default PostgreSQL port.
    public static let defaultPort = 5432
    /// The schema used when the URL names none.
    public static let defaultSchema = "public"

    /// Makes a URL from its parts, checking each as the parser would.
    ///
    /// ```swift
    /// let url = try PostgresURL(host: .name("localhost"), user: "app", database: "shop", schema: "catalog")
    /// ```
    public init(
        host: Host, port: Int = PostgresURL.defaultPort, user: String? = nil, password: String? = nil,
        database: String, schema: String = PostgresURL.defaultSchema, connectTimeout: Duration? = nil,
        tlsSettings: [String: String] = [:]
    ) throws {
        try URLPartRules.checkHost(host)
        try URLPartRules.checkPort(port)
        if let user { try URLPartRules.checkName(user, part: "user name") }
        if let password { try URLPartRules.checkNoNUL(password, part: "password") }
        try URLPartRules.checkName(database, part: "database name")
        try URLPartRules.checkName(schema, part: "schema")
        if let connectTimeout, connectTimeout <= .zero {
            throw URLPartRules.invalid("the connect timeout must be longer than zero")
        }
        for (keyword, value) in tlsSettings { try URLPartRules.checkTLSSetting(keyword, value) }
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.schema = schema
        self.connectTimeout = connectTimeout
        self.tlsSettings = tlsSettings
        self.location = ""
        self.location = URLFormatter.format(self, withOptions: false)
    }

    /// Whether the URL carries a password (the password itself is never shown).
    public var hasPassword: Bool { password != nil }

    /// The server and database without the password or options, `postgresql://user@host:port/db`:
    /// the `path` of every error about this database.
    ///
    /// ```swift
    /// try PostgresURL("postgresql://app:pw@localhost/shop").location   // postgresql://app@localhost:5432/shop
    /// ```
    public private(set) var location: String

    /// The whole URL with the password left out; parsing it again gives the same URL without
    /// the password.
    ///
    /// ```swift
    /// try PostgresURL("postgresql://app:pw@localhost/shop?schema=s").redacted
    /// // postgresql://app@localhost:5432/shop?schema=s
    /// ```
    public var redacted: String {
        URLFormatter.format(self, withOptions: true)
    }

    /// The host and port for people: `db.example.com:5432`, `[::1]:5432`, or the socket's path.
    var serverDescription: String {
        switch host {
        case .name(let name): "\(name):\(port)"
        case .ipv6(let address): "[\(address)]:\(port)"
        case .socketDirectory(let directory): "\(directory)/.s.PGSQL.\(port)"
        }
    }
}

extension PostgresURL: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The ``redacted`` URL: never the password.
    public var description: String { redacted }

    /// The ``redacted`` URL: never the password.
    public var debugDescription: String { "PostgresURL(\(redacted))" }

    /// The parts without the password, so that `dump(url)` and debuggers do not show it.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "host": host, "port": port, "user": user as Any, "hasPassword": hasPassword, "database": database,
            "schema": schema, "connectTimeout": connectTimeout as Any, "tlsSettings": tlsSettings,
        ], displayStyle: .struct)
    }
}
