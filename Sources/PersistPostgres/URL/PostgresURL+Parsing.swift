import Persist

extension PostgresURL {
    /// Parses `postgresql://user[:password]@host[:port]/database[?schema=NAME&…]`; `postgres://`
    /// is accepted too.
    ///
    /// A malformed URL throws `DataStoreError(.invalidArgument)` whose message names the part
    /// that is wrong (the scheme, user name, password, host, port, database name or a query
    /// parameter), never quoting the password.
    ///
    /// ```swift
    /// let url = try PostgresURL("postgresql://app:s%40cret@db.example.com:6432/shop?schema=catalog")
    /// url.port       // 6432
    /// url.schema     // "catalog"
    /// try PostgresURL("postgresql://app@db.example.com:http/shop")   // throws: the port is not a number
    /// ```
    public init(_ string: String) throws {
        var parser = URLParser(string)
        self = try parser.parse()
    }
}

/// The steps of ``PostgresURL/init(_:)``, one part of the URL at a time.
private struct URLParser {
    private var rest: Substring
    private var user: String?
    private var password: String?

    init(_ string: String) {
        rest = Substring(string)
    }

    mutating func parse() throws -> PostgresURL {
        try parseScheme()
        // The user information ends at the last '@': a password with an unencoded '/', '?' or
        // '#' is then still taken as a password, and never quoted as a host, database or option.
        if let at = rest.lastIndex(of: "@") {
            try parseUserInformation(rest[..<at])
            rest = rest[rest.index(after: at)...]
        }
        if rest.contains("#") { throw URLPartRules.invalid("a PostgreSQL URL has no fragment ('#')") }
        let query = cutQuery()
        let (hostText, port) = try parseHostAndPort()
        let database = try parseDatabase()
        let options = try QueryOptions(query)
        let host: PostgresURL.Host
        switch (hostText, options.socketDirectory) {
        case (nil, nil):
            throw URLPartRules.invalid("the host is missing (give one after '@', or a socket directory as ?host=/path)")
        case (nil, let directory?):
            host = .socketDirectory(directory)
        case (.some, .some):
            throw URLPartRules.invalid("the URL gives both a host and a socket directory (?host=); give only one")
        case (let given?, nil):
            host = given
        }
        return try PostgresURL(host: host, port: port ?? PostgresURL.defaultPort, user: user, password: password,
                               database: database, schema: options.schema ?? PostgresURL.defaultSchema,
                               connectTimeout: options.connectTimeout, tlsSettings: options.tlsSettings)
    }

    private mutating func parseScheme() throws {
        guard let separator = rest.range(of: "://") else {
            throw URLPartRules.invalid("it does not start with postgresql:// or postgres://")
        }
        let scheme = rest[..<separator.lowerBound].lowercased()
        guard scheme == "postgresql" || scheme == "postgres" else {
            let shown = scheme.contains("@") || scheme.contains(":") ? "" : " '\(scheme)'"
            throw URLPartRules.invalid("the scheme\(shown) is not postgresql:// or postgres://")
        }
        rest = rest[separator.upperBound...]
    }

    private mutating func parseUserInformation(_ information: Substring) throws {
        let parts = information.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        if !parts[0].isEmpty { user = try PercentEncoding.decode(parts[0], part: "user name") }
        if parts.count == 2 {
            if user == nil { throw URLPartRules.invalid("the URL gives a password but no user name") }
            password = try PercentEncoding.decode(parts[1], part: "password")
        }
    }

    /// Removes `?…` from the end and returns what followed the `?`.
    private mutating func cutQuery() -> Substring? {
        guard let mark = rest.firstIndex(of: "?") else { return nil }
        defer { rest = rest[..<mark] }
        return rest[rest.index(after: mark)...]
    }

    /// The host (`nil` when empty) and the port (`nil` when not given), up to the first '/'.
    private mutating func parseHostAndPort() throws -> (PostgresURL.Host?, Int?) {
        let end = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<end]
        rest = rest[end...]
        var host: PostgresURL.Host?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw URLPartRules.invalid("the IPv6 host has a '[' but no closing ']'")
            }
            host = .ipv6(String(authority[authority.index(after: authority.startIndex)..<close]))
            authority = authority[authority.index(after: close)...]
            if !authority.isEmpty && !authority.hasPrefix(":") {
                throw URLPartRules.invalid("the IPv6 host's ']' is followed by something other than ':PORT'")
            }
        } else {
            let name = authority.prefix { $0 != ":" }
            authority = authority[name.endIndex...]
            if !name.isEmpty { host = .name(String(name)) }
        }
        guard authority.hasPrefix(":") else { return (host, nil) }
        let portText = authority.dropFirst()
        guard !portText.isEmpty, portText.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw URLPartRules.invalid("the port is not a number from 1 to 65535")
        }
        // A long run of digits is not quoted: it may be a password typed where the port goes
        // ("postgresql://user:secret/db" without "@host").
        guard portText.count <= 5, let port = Int(portText) else {
            throw URLPartRules.invalid("the port is not a number from 1 to 65535 (it has \(portText.count) digits)")
        }
        return (host, port)
    }

    private mutating func parseDatabase() throws -> String {
        guard rest.hasPrefix("/"), rest.count > 1 else {
            throw URLPartRules.invalid("the database name is missing (add /DATABASE after the host)")
        }
        let path = rest.dropFirst()
        if path.contains("/") {
            throw URLPartRules.invalid("the database name contains a '/' (write it as %2F if the name has one)")
        }
        return try PercentEncoding.decode(path, part: "database name")
    }
}
