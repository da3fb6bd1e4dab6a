import Foundation
import Persist

/// The library's side of a migration scenario, timed three ways: the run as `persist-migrate`
/// does it in process (verification off), the same with verification (its cost is reported
/// apart), and the tool itself as a process on the same files.
final class ToolLikeSides {
    let source: any DataStore
    let sourcePath: String
    let kind: ToolLikeMigration.Kind
    let libraryPath: String
    let verifiedPath: String
    let toolPath: String
    /// Items the last in-process run copied.
    private(set) var copied = 0
    private var verification: [Double] = []
    private var toolPeak = 0.0

    init(source: any DataStore, sourcePath: String, kind: ToolLikeMigration.Kind, in directory: URL, prefix: String) {
        self.source = source
        self.sourcePath = sourcePath
        self.kind = kind
        let suffix = kind == .sqlite ? "sqlite" : "gdbm"
        libraryPath = directory.appendingPathComponent("\(prefix)-library.\(suffix)").path
        verifiedPath = directory.appendingPathComponent("\(prefix)-verified.\(suffix)").path
        toolPath = directory.appendingPathComponent("\(prefix)-tool.\(suffix)").path
    }

    /// Removes the targets.
    func removeFiles() {
        for path in [libraryPath, verifiedPath, toolPath] { try? ToolLikeMigration.remove(kind, path) }
    }

    var sides: [RoundRobinMeasurement.Side] {
        [
            .init(name: "library") { [self] in
                copied = try ToolLikeMigration.run(from: source, to: kind, at: libraryPath, verify: false).written
            },
            .init(name: "library_verified") { [self] in
                let report = try ToolLikeMigration.run(from: source, to: kind, at: verifiedPath, verify: true)
                verification.append(report.verificationSeconds)
            },
            .init(name: "tool", prepare: { [self] in try ToolLikeMigration.remove(kind, toolPath) }) { [self] in
                // As a user types it: kinds (and a raw layout) detected.
                let tool = try ChildProcessTimer.run(ChildProcessTimer.sibling("persist-migrate"), [
                    sourcePath, toolPath, "--progress", "never", "--no-verify",
                ])
                guard tool.status == 0 else { throw BenchmarkError("persist-migrate failed: \(tool.standardError)") }
                toolPeak = max(toolPeak, tool.peakMegabytes)
            },
        ]
    }

    /// The medians by name as measurements, with the tool's ratio to `baseline` seconds and the
    /// verification's cost; and the note's words for them.
    func measurements(_ seconds: [String: Double], baseline: Double) -> (values: [String: Double], note: String) {
        var values: [String: Double] = [:]
        for (name, value) in seconds { values[name + "_seconds"] = BenchmarkResult.rounded(value) }
        values["verification_seconds"] = BenchmarkResult.rounded(AlternatingMeasurement.median(verification))
        values["tool_peak_rss_mb"] = BenchmarkResult.rounded(toolPeak)
        let tool = seconds["tool"] ?? 0
        values["end_to_end_ratio"] = BenchmarkResult.rounded(tool > 0 ? baseline / tool : 0)
        let note = "as a process, persist-migrate: \(BenchmarkResult.rounded(tool)) s, ratio "
            + "\(values["end_to_end_ratio"] ?? 0), peak \(values["tool_peak_rss_mb"] ?? 0) MiB; verification adds "
            + "\(values["verification_seconds"] ?? 0) s"
        return (values, note)
    }
}
