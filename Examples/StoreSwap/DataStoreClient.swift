import Foundation
import Logging
import Persist
import PersistGDBM
import PersistSQLite

/// The app's one place that knows which store it runs on, as JustPersist's `DataStoreClient`.
///
/// Switching the app from GDBM to SQLite is a change of `kind`. On the first launch after the
/// switch the client finds the old GDBM file and no SQLite database, and moves the data across with
/// `Migration` before handing out the store; the old file is deleted only once the copy is verified.
enum DataStoreClient {
    enum Kind: String {
        case gdbm, sqlite
    }

    static var logger: Logger {
        var logger = Logger(label: "store-swap")
        logger.logLevel = .warning
        return logger
    }

    static func gdbmPath(in directory: URL) -> String { directory.appendingPathComponent("app.gdbm").path }
    static func sqlitePath(in directory: URL) -> String { directory.appendingPathComponent("app.sqlite").path }

    /// The store for this launch, set up; migrates the old store first when the kind changed.
    static func makeStore(kind: Kind, in directory: URL) throws -> any DataStore {
        switch kind {
        case .gdbm:
            let store = GDBMDataStore(path: gdbmPath(in: directory), options: .init(logger: logger))
            try store.setup()
            return store
        case .sqlite:
            let path = sqlitePath(in: directory)
            let old = gdbmPath(in: directory)
            if !FileManager.default.fileExists(atPath: path), FileManager.default.fileExists(atPath: old) {
                try migrate(from: old, to: path)
            }
            let store = SQLiteDataStore(path: path, options: .init(logger: logger))
            try store.setup()
            return store
        }
    }

    /// Copies the GDBM store into a new SQLite database built beside its final path, moves it into
    /// place once verified, and only then deletes the GDBM file. A crash before the move leaves
    /// the old file and no database, so the next launch simply migrates again; one after it leaves
    /// the complete database, which the next launch opens.
    static func migrate(from oldPath: String, to newPath: String) throws {
        let staging = newPath + ".migrating"
        try SQLiteDataStore.deleteFiles(atPath: staging)
        let source = GDBMDataStore(path: oldPath, options: .init(readOnly: true, createIfMissing: false, logger: logger))
        let target = SQLiteDataStore(path: staging, options: .init(logger: logger))
        try source.setup()
        defer { try? source.tearDown() }
        try target.setup()
        let report: MigrationReport
        do {
            report = try Migration(source: source, target: target).run()
            try target.tearDown()
        } catch {
            try? target.tearDown()
            try? SQLiteDataStore.deleteFiles(atPath: staging)
            throw error
        }
        guard report.verified else { throw DataStoreError(.corrupt, "the copy of \(oldPath) was not verified", path: newPath) }
        try FileManager.default.moveItem(atPath: staging, toPath: newPath)
        try source.tearDown()
        try GDBMDataStore.deleteFiles(atPath: oldPath)
        print("migrated \(report.written) items from GDBM to SQLite (verified); the GDBM file is gone")
    }
}
