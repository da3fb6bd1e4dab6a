import Foundation

/// One benchmark: the library doing some work, and the raw C API doing the same work.
protocol BenchmarkScenario: Sendable {
    /// The name used with `--scenario`.
    var name: String { get }
    /// How many items the scenario uses unless `--items` says otherwise.
    var defaultItems: Int { get }
    /// Runs the scenario on `items` items, with its files in `directory`.
    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult
}

extension BenchmarkScenario {
    /// A result line from the medians of an alternating measurement.
    func result(items: Int, library: Double, baseline: Double, peak: Double, note: String? = nil) -> BenchmarkResult {
        BenchmarkResult(scenario: name, items: items, library: library, baseline: baseline, peak: peak, note: note)
    }

    static func rounded(_ value: Double) -> Double { BenchmarkResult.rounded(value) }
}

/// Every scenario, in the order they run.
enum BenchmarkScenarios {
    static let all: [any BenchmarkScenario] = [
        MigrateScenario(raw: false), MigrateScenario(raw: true), MigrateSQLiteGDBMScenario(), InsertTypedScenario(),
        FetchTypedScenario(), LookupScenario(), QueryScenario(), WriteBlocksScenario(), ChildMergeScenario(),
        MigrateMemoryScenario(), IndexedQueryScenario(), ObserveLatencyScenario(), IncludeScenario(),
        // On the server PERSIST_POSTGRES_URL names (make bench starts one).
        InsertTypedPostgresScenario(), LookupPostgresScenario(), QueryPostgresScenario(), IncludePostgresScenario(),
        MigrateSQLitePostgresScenario(), MigrateGDBMPostgresScenario(), MigratePostgresSQLiteScenario(),
    ]
}
