import Foundation
import PersistTestSupport
import Testing

@Suite("persist-bench keeps working")
struct BenchSmokeTests {
    @Test("every scenario runs on 1,000 items and prints one JSON line with every field")
    func smoke() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = try ProductRunner.run("persist-bench", ["run", "--items", "1000", "--repetitions", "1",
                                                             "--work-dir", directory.url.path])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        let scenarios = ["migrate-gdbm-sqlite", "migrate-raw-gdbm-sqlite", "migrate-sqlite-gdbm", "insert-typed-sqlite",
                         "fetch-typed-sqlite", "lookup-id-sqlite", "query-sqlite", "write-blocks-gdbm", "child-merge",
                         "migrate-rss", "query-gdbm-indexed", "observe-latency", "include-sqlite", "insert-typed-postgres",
                         "lookup-id-postgres", "query-postgres", "include-postgres", "migrate-sqlite-postgres",
                         "migrate-gdbm-postgres", "migrate-postgres-sqlite"]
        #expect(lines.count == scenarios.count)
        for (line, scenario) in zip(lines, scenarios) {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            #expect(object["scenario"] as? String == scenario)
            for field in ["items", "seconds", "items_per_s", "baseline_items_per_s", "ratio", "peak_rss_mb"] {
                #expect((object[field] as? NSNumber).map { $0.doubleValue > 0 } == true, "\(scenario).\(field)")
            }
        }
        let latencyLine = scenarios.firstIndex(of: "observe-latency").flatMap { $0 < lines.count ? lines[$0] : nil }
        let latency = latencyLine.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
        for field in ["median_us", "p99_us"] {
            #expect((latency[field] as? NSNumber).map { $0.doubleValue > 0 } == true, "observe-latency.\(field)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test("each scenario of a run runs in a process of its own; one that fails stops the run and is named")
    func scenarioProcesses() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var environment = ProcessInfo.processInfo.environment
        environment["PERSIST_POSTGRES_URL"] = nil
        let output = try ProductRunner.run("persist-bench", ["run", "--scenario", "query-sqlite", "--scenario", "lookup-id-postgres",
                                                             "--scenario", "query-postgres", "--items", "200", "--repetitions",
                                                             "1", "--work-dir", directory.url.path],
                                           environment: environment)
        #expect(output.status == 1)
        #expect(output.stdout.split(separator: "\n").map { $0.contains("\"scenario\":\"query-sqlite\"") } == [true])
        #expect(output.stderr.contains("PERSIST_POSTGRES_URL is not set"))
        #expect(output.stderr.contains("the scenario lookup-id-postgres exited with status 1"))
        #expect(!output.stderr.contains("query-postgres"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test("generate writes the standard dataset; unknown scenarios are refused")
    func generateAndUsage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let generated = try ProductRunner.run("persist-bench", ["generate", "--items", "250", "--to", "sqlite:data.sqlite"],
                                              in: directory.url)
        #expect(generated.status == 0 && generated.stdout.contains("wrote 250 Restaurant items"))
        let raw = try RawDatabase(directory.path("data.sqlite"))
        #expect(try raw.rows(#"SELECT count(*), count(DISTINCT "city") FROM "Restaurant""#) == [[.integer(250), .integer(100)]])
        raw.close()
        let unknown = try ProductRunner.run("persist-bench", ["run", "--scenario", "nope"])
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown scenario"))
    }
}
