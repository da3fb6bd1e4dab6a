import Foundation
import Persist

/// A new store built beside its final path and renamed into place only when it is complete, so
/// that the final path holds either its old contents or the whole new store, whatever happens.
struct StagingFile {
    let finalPath: String
    let path: String
    private let companions: (String) -> [String]

    private static let marker = ".persist-migrate-"

    /// The most bytes of the final name a staging name repeats. A file's name has at most 255
    /// bytes (NAME_MAX); the staging name adds the marker, a process identifier and a random number
    /// (up to 36 bytes), and the stores and --recover add their own suffixes to it (a journal's
    /// `-journal`, GDBM's `.creating-<pid>-<random>` for a new file, `.recovering`): a longer name
    /// is cut, so that every one of those files can still be made.
    static let nameBudget = 150

    /// A staging path in the final path's directory: `.<name>.persist-migrate-<pid>-<random>`.
    init(finalPath: String, companions: @escaping (String) -> [String]) {
        self.finalPath = finalPath
        self.companions = companions
        let url = LiteralPath.url(finalPath)
        let name = Self.prefix(for: url) + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        path = url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// `.<name>.persist-migrate-`, the name cut to ``nameBudget`` bytes (at a character's end).
    private static func prefix(for url: URL) -> String {
        var name = ""
        var bytes = 0
        for character in url.lastPathComponent {
            bytes += character.utf8.count
            guard bytes <= nameBudget else { break }
            name.append(character)
        }
        return ".\(name)\(marker)"
    }

    /// Removes staging files that runs killed before they finished left beside `finalPath`.
    static func removeLeftovers(of finalPath: String, companions: (String) -> [String]) {
        let url = LiteralPath.url(finalPath)
        let directory = url.deletingLastPathComponent()
        let prefix = prefix(for: url)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]) else { continue }
            // Only files of processes that no longer run; a running migration keeps its own.
            if pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH { continue }
            let stale = directory.appendingPathComponent(name).path
            for file in [stale] + companions(stale) { try? FileManager.default.removeItem(atPath: file) }
        }
    }

    /// Moves the staged store over the final path atomically, after making it durable.
    func promote() throws {
        for leftover in companions(path) where FileManager.default.fileExists(atPath: leftover) {
            throw DataStoreError(.io, "the staged store \(path) still has \(leftover) after closing; nothing was moved",
                                 path: finalPath)
        }
        try Self.sync(path)
        guard rename(path, finalPath) == 0 else {
            let code = errno
            throw DataStoreError(.io, "cannot move the finished copy \(path) to \(finalPath): \(String(cString: strerror(code)))",
                                 path: finalPath, engineCode: Int(code))
        }
        try Self.sync(LiteralPath.url(finalPath).deletingLastPathComponent().path)
    }

    /// Deletes the staged store and its companion files.
    func discard() {
        for file in [path] + companions(path) { try? FileManager.default.removeItem(atPath: file) }
    }

    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let code = errno
            throw DataStoreError(.io, "cannot open \(path) to sync it: \(String(cString: strerror(code)))", path: path,
                                 engineCode: Int(code))
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            let code = errno
            throw DataStoreError(.io, "cannot sync \(path): \(String(cString: strerror(code)))", path: path, engineCode: Int(code))
        }
    }
}
