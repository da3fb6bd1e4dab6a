extension PostgresURL {
    /// The libpq connection keywords and values for this URL, for `PQconnectStartParams`.
    ///
    /// Values are passed as separate strings, never concatenated into a conninfo string, and
    /// `expand_dbname` is off, so no part of the URL can add or change a setting.
    /// `application_name` is `persist` and `client_encoding` is `UTF8`. Over TCP, keepalive
    /// probes start after ``keepaliveIdleSeconds`` of silence (see ``keepaliveParameters``).
    var connectionParameters: [(keyword: String, value: String)] {
        var parameters: [(keyword: String, value: String)] = []
        switch host {
        case .name(let name): parameters.append(("host", name))
        case .ipv6(let address): parameters.append(("host", address))
        case .socketDirectory(let directory): parameters.append(("host", directory))
        }
        parameters.append(("port", String(port)))
        parameters.append(("dbname", database))
        if let user { parameters.append(("user", user)) }
        if let password { parameters.append(("password", password)) }
        for keyword in tlsSettings.keys.sorted() {
            if let value = tlsSettings[keyword] { parameters.append((keyword, value)) }
        }
        parameters.append(("application_name", "persist"))
        parameters.append(("client_encoding", "UTF8"))
        return parameters + Self.keepaliveParameters
    }

    /// Seconds of silence on a TCP connection before the system probes the server.
    static let keepaliveIdleSeconds = 60

    /// TCP keepalive settings: a server whose host or network vanished without closing the
    /// connection (a power cut, a dropped route) is found within about two minutes, so the block
    /// waiting on it fails with "connection lost" instead of waiting for the system's default of
    /// two hours. A server that is merely slow answers the probes, so a long statement is never
    /// cut short. libpq ignores these for a Unix-domain socket.
    static let keepaliveParameters: [(keyword: String, value: String)] = [
        ("keepalives", "1"), ("keepalives_idle", String(keepaliveIdleSeconds)),
        ("keepalives_interval", "10"), ("keepalives_count", "6"),
    ]
}
