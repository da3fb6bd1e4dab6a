import Foundation
import Persist
import PersistGDBM
import PersistSQLite

/// `Migration` of the dataset from a native GDBM file to a new SQLite database, verification off,
/// in one target transaction as `persist-migrate` does, against a raw loop that scans GDBM and
/// inserts each key and value as bytes into SQLite, also in one transaction.
struct MigrateScenario: BenchmarkScenario {
    let name = "migrate-gdbm-sqlite"
    let defaultItems = 1_000_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let sourcePath = directory.appendingPathComponent("migrate-source.gdbm").path
        try BenchmarkDataset.gdbm(count: items, at: sourcePath)
        let libraryPath = directory.appendingPathComponent("migrate-library.sqlite").path
        let baselinePath = directory.appendingPathComponent("migrate-baseline.sqlite").path
        var target: SQLiteDataStore?
        var copied = 0
        let source = GDBMDataStore(path: sourcePath, options: .init(readOnly: true, createIfMissing: false, logger: .benchmark))
        try source.setup()
        defer { try? source.tearDown() }
        let (library, baseline, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: {
                try target?.tearDown()
                target = nil
                try SQLiteDataStore.deleteFiles(atPath: libraryPath)
                try SQLiteDataStore.deleteFiles(atPath: baselinePath)
                let opened = SQLiteDataStore(path: libraryPath, options: .init(logger: .benchmark))
                try opened.setup()
                target = opened
            },
            library: {
                guard let target else { return }
                let options = MigrationOptions(verify: false, atomic: true)
                copied = try Migration(source: source, target: target, options: options).run().written
            },
            baseline: {
                let gdbm = try RawGDBM(path: sourcePath, mode: .read)
                let sqlite = try RawSQLite(path: baselinePath)
                try sqlite.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
                try sqlite.execute(#"CREATE TABLE "pairs" ("key" PRIMARY KEY, "value") WITHOUT ROWID"#)
                let insert = try sqlite.prepare(#"INSERT INTO "pairs" ("key", "value") VALUES (?, ?)"#)
                try sqlite.execute("BEGIN IMMEDIATE")
                try gdbm.forEach { key, value in
                    insert.bind(1, key)
                    insert.bind(2, value)
                    _ = try insert.step()
                    insert.reset()
                }
                try sqlite.execute("COMMIT")
            })
        try target?.tearDown()
        guard copied == items else { throw BenchmarkError("the migration copied \(copied) of \(items) items") }
        return result(items: items, library: library, baseline: baseline, peak: peak)
    }
}
