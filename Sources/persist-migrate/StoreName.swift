import ArgumentParser
import Persist
import PersistPostgres

/// What `--from` or `--to` says about a store, as people type it: a kind and a path (`gdbm:old.db`),
/// a kind alone whose path comes as a positional argument (`--from gdbm … old.db`), a bare path
/// whose kind is detected, or a URL. URLs have their own case so that the engines reached over a
/// network (PostgreSQL's `postgresql://…`) slot in here.
enum StoreName: Sendable, Hashable {
    /// The kinds of file the tool reads and writes.
    enum Kind: String, Sendable, CaseIterable {
        case gdbm, sqlite, postgresql

        /// "gdbm, sqlite and postgresql", for messages.
        static var list: String { "gdbm, sqlite and postgresql" }

        /// The kind a word names: its raw value, or `postgres` for PostgreSQL.
        init?(word: String) {
            let word = word.lowercased()
            self.init(rawValue: word == "postgres" ? "postgresql" : word)
        }

        /// Whether stores of this kind are files (rather than databases on a server).
        var isFile: Bool { self != .postgresql }

        /// The article and name of a file of this kind, for messages: "a GDBM file".
        var aFile: String {
            switch self {
            case .gdbm: "a GDBM file"
            case .sqlite: "an SQLite database"
            case .postgresql: "a PostgreSQL database"
            }
        }
    }

    case kindAndPath(Kind, String)
    case kind(Kind)
    case path(String)
    /// A PostgreSQL database: `postgresql://user[:password]@host[:port]/db[?schema=NAME]`. The
    /// parsed URL keeps the password for connecting only; everything the tool shows is redacted.
    case postgres(PostgresURL)

    /// The URL schemes of PostgreSQL.
    static let postgresSchemes: Set<String> = ["postgresql", "postgres"]

    /// Parses the value of `option` (`--from` or `--to`).
    ///
    /// - Throws: `ValidationError` (exit 64) saying what is missing or wrong.
    init(parsing text: String, option: String) throws {
        let shown = String(reflecting: text)
        guard !text.isEmpty else {
            throw ValidationError("\(option) needs a store: a kind (\(Kind.list)), kind:path such as gdbm:old.db, or a path")
        }
        if text.contains("://") {
            self = try Self.url(text, option: option)
            return
        }
        if let kind = Kind(word: text) {
            self = .kind(kind)
            return
        }
        if let colon = text.firstIndex(of: ":") {
            let prefix = String(text[..<colon])
            let path = String(text[text.index(after: colon)...])
            if let kind = Kind(word: prefix), kind.isFile {
                guard !path.isEmpty else {
                    throw ValidationError("\(option) \(shown) has no path after \(String(reflecting: prefix + ":")); write "
                                            + "\(prefix):PATH, or give the path after the options: "
                                            + "persist-migrate \(option) \(prefix) … PATH")
                }
                self = .kindAndPath(kind, path)
                return
            }
            if Kind(word: prefix) == .postgresql {
                throw ValidationError("\(option) names PostgreSQL without a URL; write postgresql://user@host:port/db, or "
                                        + "\(option) postgresql with the URL after the options")
            }
            // "oracle:old.db" is an unknown kind, unless it is the name of a file.
            if Self.looksLikeKind(prefix), !path.isEmpty || text.hasSuffix(":"), !FileSystem.exists(text) {
                throw ValidationError("\(option) \(shown) has the unknown kind \(String(reflecting: prefix)); the kinds are "
                                        + "\(Kind.list) (for a file whose name has a colon, write ./\(text))")
            }
        }
        self = .path(text)
    }

    /// Parses a URL: a PostgreSQL one, or a usage error (64) naming the unknown scheme or the
    /// malformed part — never quoting the URL, which may hold a password.
    static func url(_ text: String, option: String) throws -> StoreName {
        guard let separator = text.range(of: "://") else {
            throw ValidationError("\(option) needs a PostgreSQL URL, postgresql://user@host:port/db[?schema=NAME]")
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard postgresSchemes.contains(scheme) else {
            let shown = scheme.count <= 32 && looksLikeKind(scheme) ? " \(String(reflecting: scheme))" : ""
            throw ValidationError("\(option) names a URL of the unknown scheme\(shown); the kinds of store are \(Kind.list) "
                                    + "(PostgreSQL URLs begin postgresql:// or postgres://)")
        }
        do {
            return .postgres(try PostgresURL(text))
        } catch let error as DataStoreError {
            throw ValidationError("\(option): \(error.message)")
        }
    }

    /// Whether `text` begins as a URL does: a scheme of letters, digits, '+', '-' or '.', then "://".
    static func looksLikeURL(_ text: String) -> Bool {
        guard let separator = text.range(of: "://") else { return false }
        let scheme = text[..<separator.lowerBound]
        return scheme.first?.isLetter == true
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// A word of letters and digits, as kinds are.
    private static func looksLikeKind(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// The path, when the name gives one.
    var path: String? {
        switch self {
        case .kindAndPath(_, let path), .path(let path): path
        case .postgres(let url): url.redacted
        case .kind: nil
        }
    }

    /// The kind, when the name gives one.
    var kind: Kind? {
        switch self {
        case .kindAndPath(let kind, _), .kind(let kind): kind
        case .postgres: .postgresql
        case .path: nil
        }
    }
}
