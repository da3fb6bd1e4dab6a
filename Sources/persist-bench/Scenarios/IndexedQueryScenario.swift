import Foundation
import Persist
import PersistGDBM

/// An equality filter on an indexed attribute over 1,000,000 GDBM items, against the same query
/// on the same data without the index (which reads every item). Throughput counts the items
/// each query is over; the ratio is the speed-up the index gives.
struct IndexedQueryScenario: BenchmarkScenario {
    let name = "query-gdbm-indexed"
    let defaultItems = 1_000_000
    let queries = 20

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let plainPath = directory.appendingPathComponent("plain.gdbm").path
        let indexedPath = directory.appendingPathComponent("indexed.gdbm").path
        try BenchmarkDataset.gdbm(count: items, at: plainPath)
        try FileManager.default.copyItem(atPath: plainPath, toPath: indexedPath)
        let indexed = GDBMDataStore(path: indexedPath, options: .init(logger: .benchmark))
        let plain = GDBMDataStore(path: plainPath, options: .init(logger: .benchmark))
        try indexed.setup()
        defer { try? indexed.tearDown() }
        try plain.setup()
        defer { try? plain.tearDown() }
        try indexed.writeSync { accessor in
            try accessor.ensureIndex(ofType: BenchmarkRestaurant.itemType, on: ["city"], unique: false)
        }
        func run(_ store: GDBMDataStore) throws -> [[Int]] {
            try (0..<queries).map { query in
                var request = DataStoreRequest(itemType: BenchmarkRestaurant.itemType)
                request.filter = .attribute("city") == .string(BenchmarkRestaurant.cities[query % BenchmarkRestaurant.cities.count])
                return try store.read { accessor in try accessor.getAll(BenchmarkRestaurant.self, forRequest: request) }.map(\.id)
            }
        }
        var indexedRows: [[Int]] = []
        var plainRows: [[Int]] = []
        let (library, baseline, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: {},
            library: { indexedRows = try run(indexed) },
            baseline: { plainRows = try run(plain) })
        guard indexedRows == plainRows, indexedRows.contains(where: { !$0.isEmpty }) else {
            throw BenchmarkError("the indexed and the unindexed query found different items")
        }
        let found = indexedRows.map(\.count).reduce(0, +)
        return result(items: items * queries, library: library, baseline: baseline, peak: peak,
                      note: "\(queries) queries city == X over \(items) items (\(found / queries) matches each); "
                        + "baseline = the same queries without the index")
    }
}
