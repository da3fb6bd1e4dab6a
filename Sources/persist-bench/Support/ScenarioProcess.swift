import Foundation

/// Runs one scenario in a process of its own: this program again, with `run --scenario NAME`.
///
/// A full run measures each scenario in a fresh process, so that what one scenario leaves behind
/// (heap the allocator keeps, caches, threads) counts neither towards the next one's peak memory
/// nor its time; the figures are those of the scenario run on its own. The child writes its JSON
/// line to the standard output it shares with this process.
enum ScenarioProcess {
    static func run(_ name: String, items: Int?, repetitions: Int, workDirectory: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var arguments = ["run", "--scenario", name, "--repetitions", String(repetitions), "--work-dir", workDirectory]
        if let items { arguments += ["--items", String(items)] }
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit
                ? "exited with status \(process.terminationStatus)"
                : "was killed by signal \(process.terminationStatus)"
            throw BenchmarkError("the scenario \(name) \(how), after the error it wrote above")
        }
    }
}
