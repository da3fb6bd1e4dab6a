import Foundation
import Persist
import PersistGDBM
import PersistSQLite

/// A migration run the way `persist-migrate` runs it into a new target: the source opened
/// read-only, the target built as a private staging file beside its final path (SQLite in one
/// transaction, GDBM in write blocks of 5,000 items), closed, synced and renamed into place.
enum ToolLikeMigration {
    enum Kind { case sqlite, gdbm }

    /// Opens a GDBM source read-only, in the layout the tool detects for it.
    static func gdbmSource(_ path: String, raw: Bool) throws -> GDBMDataStore {
        let store = GDBMDataStore(path: path, options: .init(
            readOnly: true, createIfMissing: false, layout: raw ? .raw() : .native, logger: .benchmark))
        try store.setup()
        return store
    }

    /// Opens an SQLite source read-only.
    static func sqliteSource(_ path: String) throws -> SQLiteDataStore {
        let store = SQLiteDataStore(path: path, options: .init(readOnly: true, createIfMissing: false, readerPoolSize: 1,
                                                              logger: .benchmark))
        try store.setup()
        return store
    }

    /// Copies `source` into a new `kind` store at `path`; returns the report.
    @discardableResult
    static func run(from source: any DataStore, to kind: Kind, at path: String, verify: Bool) throws -> MigrationReport {
        let staging = path + ".staging"
        try remove(kind, path)
        try remove(kind, staging)
        let target: any DataStore
        var options = MigrationOptions(verify: verify)
        switch kind {
        case .sqlite:
            target = SQLiteDataStore.buildingPrivateFile(at: staging, options: .init(readerPoolSize: 1, logger: .benchmark))
            options.atomic = true
        case .gdbm:
            target = GDBMDataStore.buildingPrivateFile(at: staging, options: .init(logger: .benchmark))
        }
        try target.setup()
        let report = try Migration(source: source, target: target, options: options).run()
        try target.tearDown()
        try sync(staging)
        guard rename(staging, path) == 0 else { throw BenchmarkError("cannot rename \(staging) to \(path)") }
        try sync(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        return report
    }

    static func remove(_ kind: Kind, _ path: String) throws {
        switch kind {
        case .sqlite: try SQLiteDataStore.deleteFiles(atPath: path)
        case .gdbm: try GDBMDataStore.deleteFiles(atPath: path)
        }
    }

    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BenchmarkError("cannot open \(path) to sync it") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw BenchmarkError("cannot sync \(path)") }
    }
}
