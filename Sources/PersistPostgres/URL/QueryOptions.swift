/// The query parameters of a ``PostgresURL``: `schema`, `host`, `connect_timeout` and libpq's
/// TLS settings. Every other name is an error that names it.
struct QueryOptions {
    private(set) var schema: String?
    private(set) var socketDirectory: String?
    private(set) var connectTimeout: Duration?
    private(set) var tlsSettings: [String: String] = [:]

    static let knownNames = ["schema", "host", "connect_timeout"] + URLPartRules.tlsKeywords.sorted()

    /// Parses `name=value&…` (percent-decoded); `nil` is no query at all.
    init(_ query: Substring?) throws {
        guard let query else { return }
        var seen: Set<String> = []
        for pair in query.split(separator: "&") {
            guard let equals = pair.firstIndex(of: "=") else {
                let name = try PercentEncoding.decode(pair, part: "name of a query parameter")
                throw URLPartRules.invalid("the query parameter '\(name)' has no '=VALUE'")
            }
            let name = try PercentEncoding.decode(pair[..<equals], part: "name of a query parameter")
            let value = try PercentEncoding.decode(pair[pair.index(after: equals)...], part: "query parameter '\(name)'")
            guard seen.insert(name).inserted else {
                throw URLPartRules.invalid("the query parameter '\(name)' is given twice")
            }
            try set(name, value)
        }
    }

    private mutating func set(_ name: String, _ value: String) throws {
        switch name {
        case "schema":
            schema = value
        case "host":
            guard !value.isEmpty else {
                throw URLPartRules.invalid("the query parameter 'host' is empty (give the absolute path of the server's "
                    + "socket directory, or leave it out)")
            }
            socketDirectory = value
        case "connect_timeout":
            guard let seconds = Int(value), seconds >= 1 else {
                throw URLPartRules.invalid("the query parameter 'connect_timeout' is not a whole number of seconds, at least 1")
            }
            connectTimeout = .seconds(seconds)
        case _ where URLPartRules.tlsKeywords.contains(name):
            tlsSettings[name] = value
        default:
            throw URLPartRules.invalid("the query parameter '\(name)' is not one Persist understands ("
                + Self.knownNames.joined(separator: ", ") + ")")
        }
    }
}
