import ArgumentParser
import Foundation
import Persist
import PersistGDBM
import PersistSQLite

@main
struct PersistBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "persist-bench",
        abstract: "Measure the library against the raw sqlite3 and gdbm C APIs doing the same work in the same run.",
        discussion: """
            Build it in release mode: swift build -c release --product persist-bench.
            Each scenario prints one JSON line; ratio is the library's throughput divided by the raw \
            C API's, measured alternately in the same process, medians of the repetitions. When \
            more than one scenario runs, each runs in a process of its own, so that one scenario's \
            leftovers (heap, caches, threads) count towards neither the memory nor the time of the next.
            """,
        subcommands: [Run.self, Generate.self],
        defaultSubcommand: Run.self)

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run scenarios and print one JSON line each.")

        @Option(name: .long, help: "A scenario to run (repeatable); every scenario when omitted.")
        var scenario: [String] = []

        @Option(name: .long, help: "Items per scenario instead of each scenario's standard count.")
        var items: Int?

        @Option(name: .long, help: "Timed repetitions of each side.")
        var repetitions = 3

        @Option(name: .customLong("work-dir"), help: "Where to keep the scenarios' files (removed afterwards).")
        var workDir: String?

        func validate() throws {
            let known = BenchmarkScenarios.all.map(\.name)
            for name in scenario where !known.contains(name) {
                throw ValidationError("unknown scenario \(String(reflecting: name)); the scenarios are \(known.joined(separator: ", "))")
            }
            if let items, items < 1 { throw ValidationError("--items must be at least 1") }
            if repetitions < 1 { throw ValidationError("--repetitions must be at least 1") }
        }

        func run() throws {
            let base = URL(fileURLWithPath: workDir ?? FileManager.default.temporaryDirectory.path)
            let directory = base.appendingPathComponent("persist-bench-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let chosenScenarios = BenchmarkScenarios.all.filter { scenario.isEmpty || scenario.contains($0.name) }
            for chosen in chosenScenarios {
                if chosenScenarios.count > 1 {
                    try ScenarioProcess.run(chosen.name, items: items, repetitions: repetitions, workDirectory: directory.path)
                    continue
                }
                let result = try chosen.run(items: items ?? chosen.defaultItems, in: directory, repetitions: repetitions)
                // Written unbuffered, so each line appears as soon as its scenario ends.
                FileHandle.standardOutput.write(Data((try result.jsonLine() + "\n").utf8))
            }
        }
    }

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the standard benchmark dataset (Restaurant items) to a store.")

        @Option(name: .long, help: "How many items.")
        var items: Int

        @Option(name: .long, help: ArgumentHelp("The store to write, as gdbm:<path> or sqlite:<path>.", valueName: "kind:path"))
        var to: String

        func validate() throws {
            if items < 0 { throw ValidationError("--items must not be negative") }
            let kind = to.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            if !["gdbm", "sqlite"].contains(kind) || !to.contains(":") || to.hasSuffix(":") {
                throw ValidationError("--to must be gdbm:<path> or sqlite:<path>, not \(String(reflecting: to))")
            }
        }

        func run() throws {
            let parts = to.split(separator: ":", maxSplits: 1).map(String.init)
            let path = parts[1]
            let store: any DataStore = parts[0] == "gdbm"
                ? GDBMDataStore(path: path, options: .init(logger: .benchmark))
                : SQLiteDataStore(path: path, options: .init(logger: .benchmark))
            try store.setup()
            try BenchmarkDataset.write(count: items, to: store)
            try store.tearDown()
            print("wrote \(items) Restaurant items to \(to)")
        }
    }
}
