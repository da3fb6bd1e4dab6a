import Foundation
import Persist

/// 1,000,000 rows of a legacy SQLite table (written with plain SQL, adopted as it is) copied to a
/// new native GDBM store as `persist-migrate` runs it, against a raw loop that selects the rows
/// and stores each, its columns encoded one after the other, with `gdbm_store`.
struct MigrateSQLiteGDBMScenario: BenchmarkScenario {
    let name = "migrate-sqlite-gdbm"
    let defaultItems = 1_000_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let source = directory.appendingPathComponent("legacy-source.sqlite").path
        let baselinePath = directory.appendingPathComponent("legacy-baseline.gdbm").path
        try BenchmarkDataset.legacySQLite(count: items, at: source)
        defer { try? ToolLikeMigration.remove(.sqlite, source) }
        let store = try ToolLikeMigration.sqliteSource(source)
        defer { try? store.tearDown() }
        let library = ToolLikeSides(source: store, sourcePath: source, kind: .gdbm, in: directory, prefix: "legacy")
        defer {
            library.removeFiles()
            try? ToolLikeMigration.remove(.gdbm, baselinePath)
        }
        let (seconds, peak) = try RoundRobinMeasurement(repetitions: repetitions).run(library.sides + [
            .init(name: "raw_loop") {
                try RawMigrationLoops.sqliteToGDBM(source: source, table: BenchmarkDataset.legacyTable,
                                                   columns: BenchmarkDataset.legacyColumns, target: baselinePath)
            },
        ])
        guard library.copied == items else { throw BenchmarkError("the migration copied \(library.copied) of \(items) items") }
        let baseline = seconds["raw_loop"] ?? 0
        var (measurements, toolNote) = library.measurements(seconds, baseline: baseline)
        // The tool's own peak: the bench process's reflects what its other sides left behind.
        measurements["in_process_peak_rss_mb"] = BenchmarkResult.rounded(peak)
        return BenchmarkResult(scenario: name, items: items, library: seconds["library"] ?? 0, baseline: baseline,
                               peak: measurements["tool_peak_rss_mb"] ?? peak,
                               note: "ratio = the raw loop (select, encode the columns, gdbm_store) ÷ the library; "
                                + toolNote, measurements: measurements)
    }
}
