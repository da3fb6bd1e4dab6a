import Foundation
import Persist
import PersistSQLite

/// 200,000 lookups by identifier in SQLite, each in its own read block, against a prepared select
/// by key reading the same columns.
struct LookupScenario: BenchmarkScenario {
    let name = "lookup-id-sqlite"
    let defaultItems = 200_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let path = directory.appendingPathComponent("lookup.sqlite").path
        try BenchmarkDataset.sqlite(count: items, at: path)
        // Every identifier once, in a scattered but fixed order.
        // 7,919 is prime, so stepping by it visits every identifier unless it divides the count.
        let step = items % 7_919 == 0 ? 1 : 7_919
        let ids = (0..<items).map { Int64(($0 &* step) % items) }
        let store = SQLiteDataStore(path: path, options: .init(logger: .benchmark))
        try store.setup()
        defer { try? store.tearDown() }
        let raw = try RawSQLite(path: path)
        let select = try raw.prepare(
            "SELECT \(RawStatement.restaurantColumns) FROM \"Restaurant\" WHERE \"persist_id\" = ?")
        var found = 0
        let (library, baseline, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: { found = 0 },
            library: {
                for id in ids {
                    let item = try store.read { accessor in try accessor.item(ofType: "Restaurant", id: .int(id)) }
                    if item != nil { found += 1 }
                }
            },
            baseline: {
                for id in ids {
                    select.bind(1, id)
                    if try select.step(), select.restaurant().id == id { found += 1 }
                    select.reset()
                }
            })
        guard found == items else { throw BenchmarkError("lookups found \(found) of \(items) items") }
        return result(items: items, library: library, baseline: baseline, peak: peak)
    }
}
