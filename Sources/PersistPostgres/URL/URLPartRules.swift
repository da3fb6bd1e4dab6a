import Persist

/// The rules each part of a ``PostgresURL`` must follow, and the errors that name the part.
///
/// Messages never quote the user information or the password, only the part's name and, where
/// it cannot hold a secret, its value.
enum URLPartRules {
    /// PostgreSQL keeps names to 63 bytes (`NAMEDATALEN - 1`) and silently cuts longer ones.
    static let maximumNameBytes = 63

    /// The TLS keywords passed on to libpq.
    static let tlsKeywords: Set<String> = ["sslmode", "sslrootcert", "sslcert", "sslkey"]
    /// The values `sslmode` takes.
    static let sslModes: Set<String> = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

    static func invalid(_ message: String) -> DataStoreError {
        DataStoreError(.invalidArgument, "Invalid PostgreSQL URL: \(message).")
    }

    static func checkNoNUL(_ text: String, part: String) throws {
        if text.containsNUL { throw invalid("the \(part) contains a NUL character") }
    }

    /// A user, database or schema name: not empty, no NUL, at most 63 bytes.
    static func checkName(_ name: String, part: String) throws {
        if name.isEmpty { throw invalid("the \(part) is empty") }
        try checkNoNUL(name, part: part)
        if name.utf8.count > maximumNameBytes {
            throw invalid("the \(part) is longer than PostgreSQL's limit of \(maximumNameBytes) bytes")
        }
    }

    static func checkPort(_ port: Int) throws {
        if !(1...65535).contains(port) { throw invalid("the port \(port) is not a number from 1 to 65535") }
    }

    static func checkHost(_ host: PostgresURL.Host) throws {
        switch host {
        case .name(let name):
            if name.isEmpty { throw invalid("the host is empty") }
            if !name.utf8.allSatisfy(isHostNameCharacter) {
                throw invalid("the host has characters a host name cannot have (letters, digits, '-', '.' and '_' only)")
            }
        case .ipv6(let address):
            if !isIPv6Address(address) { throw invalid("the host in brackets is not an IPv6 address") }
        case .socketDirectory(let directory):
            try checkNoNUL(directory, part: "socket directory (?host=)")
            if !directory.hasPrefix("/") {
                throw invalid("the query parameter 'host' must be the absolute path of the server's socket directory")
            }
        }
    }

    static func checkTLSSetting(_ keyword: String, _ value: String) throws {
        guard tlsKeywords.contains(keyword) else {
            throw invalid("'\(keyword)' is not a TLS setting (\(tlsKeywords.sorted().joined(separator: ", ")))")
        }
        try checkNoNUL(value, part: "query parameter '\(keyword)'")
        if value.isEmpty { throw invalid("the query parameter '\(keyword)' is empty") }
        if keyword == "sslmode", !sslModes.contains(value) {
            throw invalid("the query parameter 'sslmode' is '\(value)', not one of "
                + sslModes.sorted().joined(separator: ", "))
        }
    }

    private static func isHostNameCharacter(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Hex digits, colons and dots (an embedded IPv4 address), at least one colon, and an
    /// optional `%zone`. Anything that passes is left for the resolver to judge.
    private static func isIPv6Address(_ text: String) -> Bool {
        let parts = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
        let address = parts[0].utf8
        guard address.contains(UInt8(ascii: ":")) else { return false }
        let addressValid = address.allSatisfy { byte in
            byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") || isHexDigit(byte)
        }
        let zoneValid = parts.count == 1 || (!parts[1].isEmpty && parts[1].utf8.allSatisfy(isAlphanumeric))
        return addressValid && zoneValid
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
