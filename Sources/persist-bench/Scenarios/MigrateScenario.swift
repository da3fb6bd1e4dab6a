import Foundation

/// 1,000,000 native items of a GDBM store copied to a new SQLite database as `persist-migrate`
/// runs it (verification measured apart), against the raw loops of `RawMigrationLoops`, the tool
/// as a process, and the Python script a user would write.
struct MigrateScenario: BenchmarkScenario {
    let name = "migrate-gdbm-sqlite"
    let defaultItems = 1_000_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let source = directory.appendingPathComponent("migrate-source.gdbm").path
        try BenchmarkDataset.gdbm(count: items, at: source)
        defer { try? FileManager.default.removeItem(atPath: source) }
        return try GDBMToSQLiteComparison(scenario: name, items: items, source: source, raw: false, directory: directory,
                                          repetitions: repetitions).run()
    }
}
