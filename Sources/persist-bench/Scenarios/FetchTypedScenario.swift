import Foundation
import Persist
import PersistSQLite

/// `getAll` of 200,000 `DataStoreEntity` values from SQLite in one read block, against the same
/// select (key order) with the structs built by hand from the columns.
struct FetchTypedScenario: BenchmarkScenario {
    let name = "fetch-typed-sqlite"
    let defaultItems = 200_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let path = directory.appendingPathComponent("fetch.sqlite").path
        try BenchmarkDataset.sqlite(count: items, at: path)
        let store = SQLiteDataStore(path: path, options: .init(logger: .benchmark))
        try store.setup()
        defer { try? store.tearDown() }
        let raw = try RawSQLite(path: path)
        let select = try raw.prepare(
            "SELECT \(RawStatement.restaurantColumns) FROM \"Restaurant\" ORDER BY \"persist_id\"")
        var fetched: [BenchmarkRestaurant] = []
        var expected: [BenchmarkRestaurant] = []
        let (library, baseline, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: {},
            library: {
                fetched = try store.read { accessor in try accessor.getAll(BenchmarkRestaurant.self) }
            },
            baseline: {
                var restaurants: [BenchmarkRestaurant] = []
                while try select.step() { restaurants.append(select.restaurant()) }
                select.reset()
                expected = restaurants
            })
        guard fetched.count == items, fetched == expected else {
            throw BenchmarkError("getAll returned \(fetched.count) restaurants, not the \(expected.count) of the raw select")
        }
        return result(items: items, library: library, baseline: baseline, peak: peak)
    }
}
