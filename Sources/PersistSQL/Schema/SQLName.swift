import Foundation

/// SQL identifiers: quoting table and column names, and the name folding SQL engines compare
/// names under.
///
/// ```swift
/// SQLName.quoted(#"my "table""#)   // "\"my \"\"table\"\"\""
/// SQLName.folded("Name")          // "name"
/// ```
package enum SQLName {
    /// `name` as a quoted SQL identifier: wrapped in double quotes, inner double quotes doubled.
    /// Any name without a NUL character is safe this way, SQL keywords and quotes included, and
    /// keeps its case.
    package static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The key under which SQLite takes two names for one: it folds ASCII letters only, so `Name`
    /// and `name` are one column, while `É` and `é` are two.
    package static func folded(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return name }
        return String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The names SQLite gives a rowid, in the order it prefers them: a table's rowid goes by the
    /// first no column takes (SQLite compares names without case).
    package static let rowidNames = ["rowid", "_rowid_", "oid"]
}
