import Foundation

/// Peak memory of a GDBM → SQLite migration at one tenth of the items and at all of them, each in
/// a process of its own: flat memory means the larger run needs at most 1.25 times the smaller's.
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
            ratio: Self.rounded(small.megabytes > 0 ? large.megabytes / small.megabytes : 0),
            peakRssMb: Self.rounded(large.megabytes),
            note: "ratio = peak RSS at \(items) ÷ peak RSS at \(max(items / 10, 1)) (\(Self.rounded(small.megabytes)) MiB); "
                + "targets: at most 64 MiB and 1.25")
    }

    /// Generates the source and migrates it, each in a child process, so that the migration's peak
    /// memory is its own; returns the migration's seconds and peak RSS.
    private func measure(items: Int, in directory: URL) throws -> (seconds: Double, megabytes: Double) {
        let source = directory.appendingPathComponent("rss-source-\(items).gdbm").path
        let target = directory.appendingPathComponent("rss-target-\(items).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: source) }
        try? FileManager.default.removeItem(atPath: source)
        _ = try Self.runSelf(["generate", "--items", String(items), "--to", "gdbm:" + source])
        let fields = try Self.runSelf(["measure-migration", "--source", source, "--target", target])
            .split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard fields.count == 2 else { throw BenchmarkError("measure-migration printed no measurement") }
        return (fields[0], fields[1])
    }

    private static func runSelf(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("persist-bench \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
