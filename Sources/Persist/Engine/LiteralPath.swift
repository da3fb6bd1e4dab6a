import Foundation

/// File paths taken literally, as `open`, `stat` and the engines' C libraries take them.
///
/// Foundation's `URL(fileURLWithPath:)` expands a leading `~` to the home folder, which no system
/// call does: a store given `~/notes.db` (a folder named `~` in the working directory, or a path
/// no shell expanded) opens that relative path, so every path the store derives from it must
/// name the same file.
///
/// ```swift
/// LiteralPath.url("~/notes.db").path   // "<working directory>/~/notes.db", not "/root/notes.db"
/// LiteralPath.absolute("data/notes.db")   // "<working directory>/data/notes.db"
/// ```
package enum LiteralPath {
    /// The file URL of `path`, a leading `~` kept as a folder name.
    package static func url(_ path: String) -> URL {
        URL(fileURLWithPath: path.hasPrefix("~") ? "./" + path : path)
    }

    /// `path` made absolute against the working directory (symbolic links and `..` kept), so
    /// that a later change of the working directory does not redirect it.
    package static func absolute(_ path: String) -> String {
        url(path).path
    }
}
