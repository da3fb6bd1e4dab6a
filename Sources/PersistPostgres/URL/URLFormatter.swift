/// Prints a ``PostgresURL`` back as a URL, always without the password.
enum URLFormatter {
    /// `postgresql://user@host:port/db`, and with `withOptions` the query parameters that differ
    /// from the defaults.
    static func format(_ url: PostgresURL, withOptions: Bool) -> String {
        var text = "postgresql://"
        if let user = url.user { text += PercentEncoding.encode(user) + "@" }
        var query: [(String, String)] = []
        switch url.host {
        case .name(let name): text += name
        case .ipv6(let address): text += "[\(address)]"
        case .socketDirectory(let directory): query.append(("host", directory))
        }
        text += ":\(url.port)/" + PercentEncoding.encode(url.database)
        if withOptions {
            if url.schema != PostgresURL.defaultSchema { query.append(("schema", url.schema)) }
            if let timeout = url.connectTimeout { query.append(("connect_timeout", "\(wholeSeconds(timeout))")) }
            query += url.tlsSettings.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        if !query.isEmpty {
            text += "?" + query.map { "\($0)=\(PercentEncoding.encode($1, keeping: pathCharacters))" }
                .joined(separator: "&")
        }
        return text
    }

    /// The timeout in whole seconds, rounded up: the unit of `connect_timeout`.
    private static func wholeSeconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(1, seconds + (attoseconds > 0 ? 1 : 0))
    }

    /// Kept as they are in query values, so that socket directories and file paths stay readable.
    private static let pathCharacters: Set<UInt8> = [UInt8(ascii: "/")]
}
