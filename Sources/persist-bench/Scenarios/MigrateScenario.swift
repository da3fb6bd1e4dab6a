import Foundation

/// 1,000,000 items of a GDBM file copied to a new SQLite database as `persist-migrate` runs it
/// (verification measured apart), against the raw loops of `RawMigrationLoops`, the tool as a
/// process, and the Python script a user would write: `migrate-gdbm-sqlite` copies a native store,
/// `migrate-raw-gdbm-sqlite` the key/value pairs of a file written by another program (the raw
/// layout, which the tool detects).
struct MigrateScenario: BenchmarkScenario {
    /// Whether the source is a foreign file of raw pairs rather than a native store.
    let raw: Bool
    let defaultItems = 1_000_000

    var name: String { raw ? "migrate-raw-gdbm-sqlite" : "migrate-gdbm-sqlite" }

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let source = directory.appendingPathComponent(raw ? "migrate-raw-source.dbm" : "migrate-source.gdbm").path
        if raw {
            try BenchmarkDataset.rawGDBM(count: items, at: source)
        } else {
            try BenchmarkDataset.gdbm(count: items, at: source)
        }
        defer { try? FileManager.default.removeItem(atPath: source) }
        return try GDBMToSQLiteComparison(scenario: name, items: items, source: source, raw: raw, directory: directory,
                                          repetitions: repetitions).run()
    }
}
