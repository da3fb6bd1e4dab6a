import Foundation

/// Peak memory of `persist-migrate` copying a native GDBM store to a new SQLite database, as a
/// process of its own, verification on: at one tenth of the items and at all of them. Flat memory
/// means the larger run needs at most 1.25 times the smaller's, and both stay within 64 MiB.
struct MigrateMemoryScenario: BenchmarkScenario {
    let name = "migrate-rss"
    let defaultItems = 1_000_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let small = try measure(items: max(items / 10, 1), in: directory)
        let large = try measure(items: items, in: directory)
        return BenchmarkResult(
            scenario: name, items: items, seconds: Self.rounded(large.seconds),
            itemsPerS: (Double(items) / max(large.seconds, 1e-9)).rounded(),
            baselineItemsPerS: (Double(max(items / 10, 1)) / max(small.seconds, 1e-9)).rounded(),
            ratio: Self.rounded(small.peakMegabytes > 0 ? large.peakMegabytes / small.peakMegabytes : 0),
            peakRssMb: Self.rounded(large.peakMegabytes),
            note: "ratio = peak RSS of persist-migrate at \(items) ÷ at \(max(items / 10, 1)) items "
                + "(\(Self.rounded(small.peakMegabytes)) MiB), verification on; targets: at most 64 MiB and 1.25",
            measurements: ["small_peak_rss_mb": Self.rounded(small.peakMegabytes),
                           "large_peak_rss_mb": Self.rounded(large.peakMegabytes)])
    }

    /// Generates the source and runs the tool on it as a process; its seconds and peak RSS.
    private func measure(items: Int, in directory: URL) throws -> ChildProcessTimer.Measurement {
        let source = directory.appendingPathComponent("rss-source-\(items).gdbm").path
        let target = directory.appendingPathComponent("rss-target-\(items).sqlite").path
        defer {
            try? FileManager.default.removeItem(atPath: source)
            try? ToolLikeMigration.remove(.sqlite, target)
        }
        try BenchmarkDataset.gdbm(count: items, at: source)
        let run = try ChildProcessTimer.run(ChildProcessTimer.sibling("persist-migrate"), [source, target, "--progress", "never"])
        guard run.status == 0 else { throw BenchmarkError("persist-migrate failed: \(run.standardError)") }
        return run
    }
}
