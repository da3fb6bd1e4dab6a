import Foundation

/// 1,000,000 key/value pairs of a GDBM file written by another program (the raw layout, which the
/// tool detects) copied to a new SQLite database, compared as `migrate-gdbm-sqlite` is.
struct MigrateRawScenario: BenchmarkScenario {
    let name = "migrate-raw-gdbm-sqlite"
    let defaultItems = 1_000_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let source = directory.appendingPathComponent("migrate-raw-source.dbm").path
        try BenchmarkDataset.rawGDBM(count: items, at: source)
        defer { try? FileManager.default.removeItem(atPath: source) }
        return try GDBMToSQLiteComparison(scenario: name, items: items, source: source, raw: true, directory: directory,
                                          repetitions: repetitions).run()
    }
}
