import Foundation
import Persist

/// SQL identifiers: quoting table and column names, and SQLite's case-insensitive name matching.
enum SQLName {
    /// `name` as a quoted SQL identifier: wrapped in double quotes, inner double quotes doubled.
    /// Any name without a NUL character is safe this way, SQL keywords and quotes included.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The key under which SQLite considers two names the same: SQLite folds ASCII letters only,
    /// so `Name` and `name` are one column, while `É` and `é` are two.
    static func folded(_ name: String) -> String {
        TableDescription.folded(name)
    }

    /// Whether `name` starts with `sqlite_` in any case: SQLite reserves these table names.
    static func isReservedBySQLite(_ name: String) -> Bool {
        folded(name).hasPrefix("sqlite_")
    }

    /// Whether `a` sorts before `b` by UTF-8 bytes, the order of `itemTypes()`.
    static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
