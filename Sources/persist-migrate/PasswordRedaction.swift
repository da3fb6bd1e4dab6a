import PersistPostgres

/// Takes the passwords of the URLs typed on the command line out of a message that may quote
/// them: the argument parser repeats a value it cannot use as it was typed, and a value out of
/// place (a URL given as a path too many, or after `--batch-size`) can be a URL with a password.
enum PasswordRedaction {
    /// `text` with each URL of `arguments` that holds a password written without it.
    static func redact(_ text: String, arguments: [String]) -> String {
        var text = text
        // `--to=URL` is quoted without its option; the longest first, so that no shorter one
        // leaves part of a longer one behind.
        let values = arguments.flatMap { argument in
            [argument] + (argument.firstIndex(of: "=").map { [String(argument[argument.index(after: $0)...])] } ?? [])
        }
        for value in Set(values).sorted(by: { $0.count > $1.count }) {
            guard let redacted = withoutPassword(value) else { continue }
            text = text.replacingOccurrences(of: value, with: redacted)
        }
        return text
    }

    /// The URL without its password, or `nil` when `text` holds none: parsed as a PostgreSQL URL
    /// when it is one, otherwise everything between the user's name and the last `@` dropped.
    static func withoutPassword(_ text: String) -> String? {
        guard let separator = text.range(of: "://") else { return nil }
        let rest = text[separator.upperBound...]
        guard let at = rest.lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") else { return nil }
        if let url = try? PostgresURL(text) { return url.redacted }
        return String(text[..<colon]) + String(rest[at...])
    }
}
