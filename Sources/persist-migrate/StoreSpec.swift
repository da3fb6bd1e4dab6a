import ArgumentParser

/// A store named on the command line as `<kind>:<path>`, such as `gdbm:old.db`.
struct StoreSpec: Sendable, Hashable, CustomStringConvertible {
    enum Kind: String, Sendable, CaseIterable {
        case gdbm, sqlite
    }

    let kind: Kind
    let path: String

    /// Parses `<kind>:<path>`; the message says what is wrong and what a good value looks like.
    init(parsing text: String, option: String) throws {
        guard let colon = text.firstIndex(of: ":") else {
            throw ValidationError(
                "\(option) \(String(reflecting: text)) names no kind; write <kind>:<path>, for example \(option) gdbm:old.db "
                    + "(kinds: \(Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let kindText = String(text[..<colon])
        let path = String(text[text.index(after: colon)...])
        guard let kind = Kind(rawValue: kindText.lowercased()) else {
            throw ValidationError(
                "\(option) \(String(reflecting: text)) has the unknown kind \(String(reflecting: kindText)); "
                    + "the kinds are \(Kind.allCases.map(\.rawValue).joined(separator: " and "))")
        }
        guard !path.isEmpty else {
            throw ValidationError("\(option) \(String(reflecting: text)) has no path after \(String(reflecting: kindText + ":"))")
        }
        self.kind = kind
        self.path = path
    }

    var description: String { "\(kind.rawValue):\(path)" }
}
