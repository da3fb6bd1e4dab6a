import Foundation
import Persist

/// The database files this process has open through `GDBMDataStore`, so that two stores in one
/// process never both get write access to one file.
///
/// GDBM's own lock already refuses a second writer when it locks with `flock` (the usual case on
/// Linux), but where it falls back to `fcntl` locks, which never conflict within one process,
/// only this registry would notice. A claim is released when its ``Claim`` object goes away.
enum OpenFileRegistry {
    private struct Holders {
        var writers = 0
        var readers = 0
    }

    /// Holders by the UTF-8 bytes of the canonical path: Linux names files by bytes, so "café"
    /// precomposed and decomposed are two files, which `String` equality would take for one.
    private static let holders = Locked<[[UInt8]: Holders]>([:])

    /// A file held by one store; ``release()`` (or deallocation) gives it up, once.
    final class Claim: Sendable {
        let key: [UInt8]
        let isWriter: Bool
        private let released = Locked(false)

        fileprivate init(key: [UInt8], isWriter: Bool) {
            self.key = key
            self.isWriter = isWriter
        }

        deinit {
            release()
        }

        /// Gives the file up; later calls do nothing.
        func release() {
            guard released.withLock({ released in
                defer { released = true }
                return !released
            }) else { return }
            let key = key
            let isWriter = isWriter
            OpenFileRegistry.holders.withLock { holders in
                var entry = holders[key] ?? Holders()
                if isWriter { entry.writers -= 1 } else { entry.readers -= 1 }
                holders[key] = entry.writers <= 0 && entry.readers <= 0 ? nil : entry
            }
        }
    }

    /// The path with symbolic links and `.`/`..` resolved, so that two spellings of one file match.
    static func canonicalPath(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let url = LiteralPath.url(path)
        let directory = url.deletingLastPathComponent().path
        guard let resolved = realpath(directory, nil) else { return url.standardizedFileURL.path }
        defer { free(resolved) }
        return URL(fileURLWithPath: String(cString: resolved)).appendingPathComponent(url.lastPathComponent).path
    }

    /// Claims `path` for writing (alone) or reading (shared); `nil` when the claim conflicts.
    static func claim(_ path: String, writer: Bool) -> Claim? {
        let key = Array(canonicalPath(path).utf8)
        let granted = holders.withLock { holders -> Bool in
            var entry = holders[key] ?? Holders()
            if entry.writers > 0 || (writer && entry.readers > 0) { return false }
            if writer { entry.writers += 1 } else { entry.readers += 1 }
            holders[key] = entry
            return true
        }
        return granted ? Claim(key: key, isWriter: writer) : nil
    }
}
