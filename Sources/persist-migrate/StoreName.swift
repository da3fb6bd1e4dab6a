import ArgumentParser

/// What `--from` or `--to` says about a store, as people type it: a kind and a path (`gdbm:old.db`),
/// a kind alone whose path comes as a positional argument (`--from gdbm … old.db`), a bare path
/// whose kind is detected, or a URL. URLs have their own case so that the engines reached over a
/// network (PostgreSQL's `postgresql://…`) slot in here.
enum StoreName: Sendable, Hashable {
    /// The kinds of file the tool reads and writes.
    enum Kind: String, Sendable, CaseIterable {
        case gdbm, sqlite

        /// "gdbm and sqlite", for messages.
        static var list: String { allCases.map(\.rawValue).joined(separator: " and ") }

        /// The article and name of a file of this kind, for messages: "a GDBM file".
        var aFile: String {
            switch self {
            case .gdbm: "a GDBM file"
            case .sqlite: "an SQLite database"
            }
        }
    }

    case kindAndPath(Kind, String)
    case kind(Kind)
    case path(String)
    /// A server's URL; no engine of this version serves one (see ``schemes``).
    case url(scheme: String, String)

    /// URL schemes the tool knows of, and what to say while their engine is not here.
    static let schemes: [String: String] = [
        "postgresql": "PostgreSQL", "postgres": "PostgreSQL",
    ]

    /// Parses the value of `option` (`--from` or `--to`).
    ///
    /// - Throws: `ValidationError` (exit 64) saying what is missing or wrong.
    init(parsing text: String, option: String) throws {
        let shown = String(reflecting: text)
        guard !text.isEmpty else {
            throw ValidationError("\(option) needs a store: a kind (\(Kind.list)), kind:path such as gdbm:old.db, or a path")
        }
        if let separator = text.range(of: "://") {
            let scheme = text[..<separator.lowerBound].lowercased()
            guard let engine = Self.schemes[scheme] else {
                throw ValidationError("\(option) \(shown) is a URL of the unknown scheme \(String(reflecting: scheme)); "
                                        + "the kinds of store are \(Kind.list)")
            }
            throw ValidationError("\(option) \(shown) names a \(engine) database, which this persist-migrate cannot reach "
                                    + "yet; the kinds of store are \(Kind.list)")
        }
        if let kind = Kind(rawValue: text.lowercased()) {
            self = .kind(kind)
            return
        }
        if let colon = text.firstIndex(of: ":") {
            let prefix = String(text[..<colon])
            let path = String(text[text.index(after: colon)...])
            if let kind = Kind(rawValue: prefix.lowercased()) {
                guard !path.isEmpty else {
                    throw ValidationError("\(option) \(shown) has no path after \(String(reflecting: prefix + ":")); write "
                                            + "\(prefix):PATH, or give the path after the options: "
                                            + "persist-migrate \(option) \(prefix) … PATH")
                }
                self = .kindAndPath(kind, path)
                return
            }
            // "oracle:old.db" is an unknown kind, unless it is the name of a file.
            if Self.looksLikeKind(prefix), !path.isEmpty || text.hasSuffix(":"), !FileSystem.exists(text) {
                throw ValidationError("\(option) \(shown) has the unknown kind \(String(reflecting: prefix)); the kinds are "
                                        + "\(Kind.list) (for a file whose name has a colon, write ./\(text))")
            }
        }
        self = .path(text)
    }

    /// A word of letters and digits, as kinds are.
    private static func looksLikeKind(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// The path, when the name gives one.
    var path: String? {
        switch self {
        case .kindAndPath(_, let path), .path(let path): path
        case .kind, .url: nil
        }
    }

    /// The kind, when the name gives one.
    var kind: Kind? {
        switch self {
        case .kindAndPath(let kind, _), .kind(let kind): kind
        case .path, .url: nil
        }
    }
}
