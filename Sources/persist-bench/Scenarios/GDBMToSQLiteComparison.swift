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
        let libraryPath = directory.appendingPathComponent("\(scenario)-library.sqlite").path
        let verifiedPath = directory.appendingPathComponent("\(scenario)-verified.sqlite").path
        let toolPath = directory.appendingPathComponent("\(scenario)-tool.sqlite").path
        let baselinePath = directory.appendingPathComponent("\(scenario)-baseline.sqlite").path
        let pythonPath = directory.appendingPathComponent("\(scenario)-python.sqlite").path
        defer {
            for path in [libraryPath, verifiedPath, toolPath, baselinePath, pythonPath] {
                try? ToolLikeMigration.remove(.sqlite, path)
            }
        }
        let store = try ToolLikeMigration.gdbmSource(source, raw: raw)
        defer { try? store.tearDown() }
        var copied = 0
        var verification: [Double] = []
        var toolPeak = 0.0
        var sides: [RoundRobinMeasurement.Side] = [
            .init(name: "library") {
                copied = try ToolLikeMigration.run(from: store, to: .sqlite, at: libraryPath, verify: false).written
            },
            .init(name: "library_verified") {
                let report = try ToolLikeMigration.run(from: store, to: .sqlite, at: verifiedPath, verify: true)
                verification.append(report.verificationSeconds)
            },
            .init(name: "tool", prepare: { try ToolLikeMigration.remove(.sqlite, toolPath) }) {
                // As a user types it: kinds and the raw layout detected.
                let tool = try ChildProcessTimer.run(ChildProcessTimer.sibling("persist-migrate"), [
                    source, toolPath, "--progress", "never", "--no-verify",
                ])
                guard tool.status == 0 else { throw BenchmarkError("persist-migrate failed: \(tool.standardError)") }
                toolPeak = max(toolPeak, tool.peakMegabytes)
            },
        ]
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
        guard copied == items else { throw BenchmarkError("the migration copied \(copied) of \(items) items") }

        let library = seconds["library"] ?? 0
        let strongest = RawMigrationLoops.GDBMToSQLite.keyedInserts.min { seconds[$0.rawValue] ?? 0 < seconds[$1.rawValue] ?? 0 }
            ?? .keyedRowid
        let baseline = seconds[strongest.rawValue] ?? 0
        var measurements: [String: Double] = [:]
        for (name, value) in seconds { measurements[name + "_seconds"] = Self.rounded(value) }
        measurements["verification_seconds"] = Self.rounded(AlternatingMeasurement.median(verification))
        measurements["tool_peak_rss_mb"] = Self.rounded(toolPeak)
        let tool = seconds["tool"] ?? 0
        measurements["end_to_end_ratio"] = Self.rounded(tool > 0 ? baseline / tool : 0)
        var note = "ratio = the strongest keyed-insert raw loop (\(strongest.rawValue), 64 MiB page cache) ÷ the "
            + "library; as a process, persist-migrate: \(Self.rounded(tool)) s, ratio \(measurements["end_to_end_ratio"] ?? 0); "
            + "verification adds \(measurements["verification_seconds"] ?? 0) s"
        if let pythonSeconds = seconds["python"] {
            measurements["python_ratio"] = Self.rounded(library > 0 ? pythonSeconds / library : 0)
            measurements["python_end_to_end_ratio"] = Self.rounded(tool > 0 ? pythonSeconds / tool : 0)
            note += "; the Python script (dbm.gnu + executemany): \(Self.rounded(pythonSeconds)) s, "
                + "\(measurements["python_ratio"] ?? 0)× slower than the library, \(measurements["python_end_to_end_ratio"] ?? 0)× "
                + "than the tool"
        } else {
            note += "; " + pythonNote
        }
        let itemsPerSecond = library > 0 ? Double(items) / library : 0
        let baselinePerSecond = baseline > 0 ? Double(items) / baseline : 0
        return BenchmarkResult(
            scenario: scenario, items: items, seconds: Self.rounded(library), itemsPerS: itemsPerSecond.rounded(),
            baselineItemsPerS: baselinePerSecond.rounded(),
            ratio: Self.rounded(baselinePerSecond > 0 ? itemsPerSecond / baselinePerSecond : 0),
            peakRssMb: Self.rounded(peak), note: note, measurements: measurements)
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
