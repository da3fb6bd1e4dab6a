import Foundation

/// Finding the short-lived files the store makes beside a database (`.creating-…`, `.replay-…`).
enum FileNames {
    /// The names of the entries of `folder` (the current folder when empty) that start with
    /// `prefix`, compared by their UTF-8 bytes: Linux names files by bytes, so a name whose "é" is
    /// precomposed and one whose "é" is decomposed belong to two files, where `String.hasPrefix`,
    /// comparing as Swift does, would take one for the other.
    static func entries(of folder: String, startingWith prefix: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return [] }
        return names.filter { $0.utf8.starts(with: prefix.utf8) }
    }
}
