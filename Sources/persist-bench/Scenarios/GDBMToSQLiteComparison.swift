import Foundation
import Persist

/// What the GDBM → SQLite migration scenarios share: the library's run as `persist-migrate` does it,
/// in process and as the tool itself; the raw loops; and the Python script a user would write.
struct GDBMToSQLiteComparison {
    let scenario: String
    let items: Int
    /// The GDBM file to copy.
    let source: String
    /// Whether the file was written by another program (the raw layout).
    let raw: Bool
    let directory: URL
    let repetitions: Int

    func run() throws -> BenchmarkResult {
        let baselinePath = directory.appendingPathComponent("\(scenario)-baseline.sqlite").path
        let pythonPath = directory.appendingPathComponent("\(scenario)-python.sqlite").path
        let store = try ToolLikeMigration.gdbmSource(source, raw: raw)
        defer { try? store.tearDown() }
        let library = ToolLikeSides(source: store, sourcePath: source, kind: .sqlite, in: directory, prefix: scenario)
        defer {
            library.removeFiles()
            for path in [baselinePath, pythonPath] { try? ToolLikeMigration.remove(.sqlite, path) }
        }
        var sides = library.sides
        for loop in RawMigrationLoops.GDBMToSQLite.allCases {
            sides.append(.init(name: loop.rawValue) { try loop.run(source: source, target: baselinePath) })
        }
        let (python, pythonNote) = PythonCopyScript.interpreter()
        if let python {
            sides.append(.init(name: "python") {
                _ = try PythonCopyScript.run(python: python, source: source, target: pythonPath, in: directory)
            })
        }
        let (seconds, peak) = try RoundRobinMeasurement(repetitions: repetitions).run(sides)
        guard library.copied == items else { throw BenchmarkError("the migration copied \(library.copied) of \(items) items") }

        let librarySeconds = seconds["library"] ?? 0
        let strongest = RawMigrationLoops.GDBMToSQLite.keyedInserts.min { seconds[$0.rawValue] ?? 0 < seconds[$1.rawValue] ?? 0 }
            ?? .keyedRowid
        let baseline = seconds[strongest.rawValue] ?? 0
        var (measurements, toolNote) = library.measurements(seconds, baseline: baseline)
        var note = "ratio = the strongest keyed-insert raw loop (\(strongest.rawValue), 64 MiB page cache) ÷ the library; "
            + toolNote
        if let pythonSeconds = seconds["python"] {
            let tool = seconds["tool"] ?? 0
            measurements["python_ratio"] = BenchmarkResult.rounded(librarySeconds > 0 ? pythonSeconds / librarySeconds : 0)
            measurements["python_end_to_end_ratio"] = BenchmarkResult.rounded(tool > 0 ? pythonSeconds / tool : 0)
            note += "; the Python script (dbm.gnu + executemany): \(BenchmarkResult.rounded(pythonSeconds)) s, "
                + "\(measurements["python_ratio"] ?? 0)× the library's time, \(measurements["python_end_to_end_ratio"] ?? 0)× "
                + "the tool's"
        } else {
            note += "; " + pythonNote
        }
        // The tool's own peak: the bench process's reflects what its other sides left behind.
        measurements["in_process_peak_rss_mb"] = BenchmarkResult.rounded(peak)
        return BenchmarkResult(scenario: scenario, items: items, library: librarySeconds, baseline: baseline,
                               peak: measurements["tool_peak_rss_mb"] ?? peak, note: note, measurements: measurements)
    }
}
