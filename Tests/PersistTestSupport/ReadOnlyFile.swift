import Foundation

/// Makes files and folders unwritable for this process too: `chmod 444` (`555` for a folder, which
/// stays searchable), and for root (whom permissions do not stop) the immutable attribute.
public enum ReadOnlyFile {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Makes `path` unwritable; undo it with ``makeWritable(_:)`` before removing it.
    public static func makeReadOnly(_ path: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: isFolder(path) ? 0o555 : 0o444], ofItemAtPath: path)
        guard access(path, W_OK) == 0 else { return }
        guard chattr("+i", path) else {
            throw Failure(description: "chattr +i \(path) failed; the file stays writable for root")
        }
    }

    /// Makes `path` writable again.
    public static func makeWritable(_ path: String) {
        _ = chattr("-i", path)
        try? FileManager.default.setAttributes([.posixPermissions: isFolder(path) ? 0o755 : 0o644], ofItemAtPath: path)
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func chattr(_ flag: String, _ path: String) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
