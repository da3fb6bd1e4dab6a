import Foundation
import Persist

/// The few questions the tool asks the file system about the paths it is given.
enum FileSystem {
    /// What is at a path.
    enum Entry: Equatable {
        case missing
        case directory
        /// A device, socket or pipe: never a store.
        case special
        case file(size: Int64)
        /// The path cannot be examined (permissions), with the system's text.
        case unreadable(String)
    }

    static func entry(_ path: String) -> Entry {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .missing }
            return .unreadable(String(cString: strerror(code)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .file(size: Int64(status.st_size))
        case S_IFDIR: return .directory
        default: return .special
        }
    }

    static func exists(_ path: String) -> Bool {
        entry(path) != .missing
    }

    /// The first `count` bytes of a file (fewer when it is shorter); `nil` when it cannot be read.
    static func prefix(of path: String, count: Int) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: count)).map { [UInt8]($0) } ?? []
    }

    /// Why a `FileManager` call failed, in the system's words (its `localizedDescription` is often
    /// only "The operation could not be completed").
    static func reason(_ error: any Error) -> String {
        if let code = systemError(error) { return String(cString: strerror(code)) }
        return error.localizedDescription
    }

    /// The system's error number (`errno`) behind a `FileManager` call's failure, when it gives one.
    static func systemError(_ error: any Error) -> Int32? {
        guard let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error,
              (underlying as NSError).domain == NSPOSIXErrorDomain else { return nil }
        return Int32((underlying as NSError).code)
    }

    /// The directory a path is in.
    static func directory(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// Whether two paths name one file: the same path once `.`, `..` and symbolic links are
    /// resolved, or two hard links to the same file (device and inode).
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        if canonical(first) == canonical(second) { return true }
        var one = stat()
        var other = stat()
        guard stat(first, &one) == 0, stat(second, &other) == 0 else { return false }
        return one.st_dev == other.st_dev && one.st_ino == other.st_ino
    }

    /// Gives `copy` the owner and group of `original`, so that a file rebuilt beside itself and
    /// renamed over it keeps them (its permissions come with the copy): a tool run by root over
    /// a service's file must not leave it root's. Only root may give a file to another user; any
    /// other user keeps at least the group when it is one of theirs, as editors do.
    static func copyOwnership(of original: String, to copy: String) {
        var status = stat()
        guard stat(original, &status) == 0 else { return }
        if chown(copy, status.st_uid, status.st_gid) != 0 {
            _ = chown(copy, uid_t.max, status.st_gid)
        }
    }

    /// The path with `.`, `..` and symbolic links resolved as the system resolves them, to tell
    /// whether two paths are one file and to reach the file a path names: a `..` after a symbolic
    /// link to a folder leads to that folder's parent, not back to where the link is. A path that
    /// does not exist has its folder resolved so, and keeps its name.
    static func canonical(_ path: String) -> String {
        if let resolved = realPath(path) { return resolved }
        let url = LiteralPath.url(path)
        if let folder = realPath(url.deletingLastPathComponent().path) {
            return (folder as NSString).appendingPathComponent(url.lastPathComponent)
        }
        return url.standardizedFileURL.path
    }

    /// realpath(3): the absolute path of an existing file, every link and `.` and `..` resolved.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Where a symbolic link at `path` leads when what it leads to does not exist yet (following
    /// links to links), so that a new target named by the link is made there and the link stays,
    /// as SQLite and GDBM themselves would make it; `nil` when `path` is no symbolic link.
    static func danglingLinkDestination(_ path: String) -> String? {
        var current = path
        // As the kernel does, give up after 40 links (a loop): the path is then used as typed.
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return current == path ? nil : current
            }
            current = destination.hasPrefix("/") ? destination
                : (directory(of: current) as NSString).appendingPathComponent(destination)
        }
        return nil
    }

    /// For a path that starts with a `~` the shell did not expand, a note saying how to name the
    /// home folder; empty otherwise.
    static func unexpandedTildeNote(_ path: String) -> String {
        guard path.hasPrefix("~") else { return "" }
        return " (the shell expands ~ only at the start of a word, not after kind: or inside quotes; write $HOME/… "
            + "for the home folder)"
    }
}
