import Foundation
import Persist
import PersistSQLite

/// A filtered, sorted, limited request over 1,000,000 SQLite items, against the hand-written SQL.
/// Throughput counts the items each query considers.
struct QueryScenario: BenchmarkScenario {
    let name = "query-sqlite"
    let defaultItems = 1_000_000
    let queries = 20

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let path = directory.appendingPathComponent("query.sqlite").path
        try BenchmarkDataset.sqlite(count: items, at: path)
        let store = SQLiteDataStore(path: path, options: .init(logger: .benchmark))
        try store.setup()
        defer { try? store.tearDown() }
        let raw = try RawSQLite(path: path)
        let select = try raw.prepare("""
            SELECT "persist_id", "name", "city", "rating", "open", "score", "updated", "note" FROM "Restaurant" \
            WHERE "city" = ?1 AND "rating" >= ?2 ORDER BY "score" DESC, "persist_id" LIMIT 50
            """)
        var libraryRows: [[Int64]] = []
        var baselineRows: [[Int64]] = []
        let (library, baseline, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: {},
            library: {
                libraryRows = try (0..<queries).map { query in
                    let request = BenchmarkRestaurant.queryRequest(query)
                    let found = try store.read { accessor in try accessor.getAll(BenchmarkRestaurant.self, forRequest: request) }
                    return found.map { Int64($0.id) }
                }
            },
            baseline: {
                baselineRows = try (0..<queries).map { query in
                    select.bind(1, BenchmarkRestaurant.cities[query % 100])
                    select.bind(2, Int64(2))
                    var ids: [Int64] = []
                    while try select.step() {
                        let restaurant = BenchmarkRestaurant(
                            id: Int(select.int64(0)), name: select.string(1), city: select.string(2),
                            rating: Int(select.int64(3)), open: select.int64(4) != 0, score: select.double(5),
                            updated: Date(timeIntervalSinceReferenceDate: select.double(6)),
                            note: select.isNull(7) ? nil : select.string(7))
                        ids.append(Int64(restaurant.id))
                    }
                    select.reset()
                    return ids
                }
            })
        guard libraryRows == baselineRows else { throw BenchmarkError("the library and the SQL found different rows") }
        return result(items: items * queries, library: library, baseline: baseline, peak: peak,
                      note: "\(queries) queries over \(items) items; items = items considered")
    }
}
