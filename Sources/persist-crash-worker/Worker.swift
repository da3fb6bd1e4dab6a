import Foundation
import Logging
import Persist
import PersistGDBM
import PersistPostgres
import PersistSQLite

/// What every mode of the worker shares: reporting, usage errors, and opening a store by kind.
enum Worker {
    /// How many rounds' items stay in the store (older ones are deleted).
    static let window: Int64 = 8

    /// How long a worker waits for another process's lock before it gives up. Workers that write
    /// one store at the same time wait for each other's blocks; on a machine starved by other work
    /// (two CPU spinners beside the test suite) one such wait once went past 10 seconds. A minute
    /// still ends a worker that would wait forever.
    static let lockWait: Duration = .seconds(60)

    /// Writes one line to standard output at once (no buffering survives a SIGKILL).
    static func report(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func usage(_ text: String) -> Never {
        FileHandle.standardError.write(Data("usage: persist-crash-worker \(text)\n".utf8))
        exit(64)
    }

    /// Opens the store of `kind` (`sqlite`, `gdbm`, or `postgres`, whose path is a URL) at `path`
    /// with `durability`; `usage` is printed for an unknown kind.
    static func openStore(kind: String, path: String, durability: Durability, usage text: String) throws -> any DataStore {
        var logger = Logger(label: "persist-crash-worker")
        logger.logLevel = .warning
        let store: any DataStore
        switch kind {
        case "sqlite":
            store = SQLiteDataStore(path: path, options: .init(durability: durability, busyTimeout: lockWait, logger: logger))
        case "gdbm":
            store = GDBMDataStore(path: path, options: .init(durability: durability, lockWait: lockWait, logger: logger))
        case "postgres":
            store = PostgresDataStore(url: path, options: .init(durability: durability, lockTimeout: lockWait, logger: logger))
        default:
            usage(text)
        }
        try store.setup()
        return store
    }

    /// The round the store reached before: the integer `attribute` of the item `itemType`/0, or 0.
    static func lastRound(of store: any DataStore, itemType: String, attribute: String) throws -> Int64 {
        try store.read { accessor in try accessor.item(ofType: itemType, id: 0)?[attribute]?.intValue } ?? 0
    }

    /// Caps the size of every file the process writes at `bytes` (RLIMIT_FSIZE) and ignores
    /// SIGXFSZ, so that a write past the cap fails with EFBIG, as one on a full disk fails with
    /// ENOSPC; returns the cap it replaced.
    static func capFileSizes(at bytes: rlim_t) throws -> rlim_t {
        signal(SIGXFSZ, SIG_IGN)
        // Glibc declares RLIMIT_FSIZE as a case of an enum that Swift imports under another type.
        let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
        var limits = rlimit()
        guard getrlimit(resource, &limits) == 0 else { throw WorkerError("getrlimit failed: errno \(errno)") }
        let previous = limits.rlim_cur
        limits.rlim_cur = bytes
        guard setrlimit(resource, &limits) == 0 else { throw WorkerError("setrlimit failed: errno \(errno)") }
        return previous
    }

    /// The number in `arguments[index]`, or `fallback` when it is absent; `usage` when it is not a
    /// positive number.
    static func count(_ arguments: [String], at index: Int, default fallback: Int64, usage text: String) -> Int64 {
        guard arguments.count > index else { return fallback }
        guard let value = Int64(arguments[index]), value > 0 else { usage(text) }
        return value
    }
}
