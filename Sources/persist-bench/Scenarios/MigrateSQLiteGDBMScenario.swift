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
        let libraryPath = directory.appendingPathComponent("legacy-library.gdbm").path
        let verifiedPath = directory.appendingPathComponent("legacy-verified.gdbm").path
        let toolPath = directory.appendingPathComponent("legacy-tool.gdbm").path
        let baselinePath = directory.appendingPathComponent("legacy-baseline.gdbm").path
        try BenchmarkDataset.legacySQLite(count: items, at: source)
        defer {
            try? ToolLikeMigration.remove(.sqlite, source)
            for path in [libraryPath, verifiedPath, toolPath, baselinePath] { try? ToolLikeMigration.remove(.gdbm, path) }
        }
        let store = try ToolLikeMigration.sqliteSource(source)
        defer { try? store.tearDown() }
        var copied = 0
        var verification: [Double] = []
        var toolPeak = 0.0
        let (seconds, peak) = try RoundRobinMeasurement(repetitions: repetitions).run([
            .init(name: "library") {
                copied = try ToolLikeMigration.run(from: store, to: .gdbm, at: libraryPath, verify: false).written
            },
            .init(name: "library_verified") {
                let report = try ToolLikeMigration.run(from: store, to: .gdbm, at: verifiedPath, verify: true)
                verification.append(report.verificationSeconds)
            },
            .init(name: "tool", prepare: { try ToolLikeMigration.remove(.gdbm, toolPath) }) {
                let tool = try ChildProcessTimer.run(ChildProcessTimer.sibling("persist-migrate"), [
                    source, toolPath, "--progress", "never", "--no-verify",
                ])
                guard tool.status == 0 else { throw BenchmarkError("persist-migrate failed: \(tool.standardError)") }
                toolPeak = max(toolPeak, tool.peakMegabytes)
            },
            .init(name: "raw_loop") {
                try RawMigrationLoops.sqliteToGDBM(source: source, table: BenchmarkDataset.legacyTable,
                                                   columns: BenchmarkDataset.legacyColumns, target: baselinePath)
            },
        ])
        guard copied == items else { throw BenchmarkError("the migration copied \(copied) of \(items) items") }
        let library = seconds["library"] ?? 0
        let baseline = seconds["raw_loop"] ?? 0
        let tool = seconds["tool"] ?? 0
        var measurements: [String: Double] = [:]
        for (name, value) in seconds { measurements[name + "_seconds"] = GDBMToSQLiteComparison.rounded(value) }
        measurements["verification_seconds"] = GDBMToSQLiteComparison.rounded(AlternatingMeasurement.median(verification))
        measurements["tool_peak_rss_mb"] = GDBMToSQLiteComparison.rounded(toolPeak)
        measurements["end_to_end_ratio"] = GDBMToSQLiteComparison.rounded(tool > 0 ? baseline / tool : 0)
        let note = "ratio = the raw loop (select, encode the columns, gdbm_store) ÷ the library; as a process, "
            + "persist-migrate: \(GDBMToSQLiteComparison.rounded(tool)) s, ratio \(measurements["end_to_end_ratio"] ?? 0); "
            + "verification adds \(measurements["verification_seconds"] ?? 0) s"
        var result = result(items: items, library: library, baseline: baseline, peak: peak, note: note)
        result.measurements = measurements
        return result
    }
}
