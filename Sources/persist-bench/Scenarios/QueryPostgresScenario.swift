import CLibPQ
import Foundation
import Persist
import PersistPostgres

/// A filtered, sorted, limited request over 1,000,000 PostgreSQL items, against the hand-written
/// SQL through raw libpq. Throughput counts the items each query considers.
struct QueryPostgresScenario: BenchmarkScenario {
    let name = "query-postgres"
    let defaultItems = 1_000_000
    let queries = 20

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let url = try BenchmarkServer.url()
        let schema = BenchmarkServer.newSchema(name)
        defer { BenchmarkDataset.dropPostgres(schema, url: url) }
        try BenchmarkDataset.postgres(count: items, url: url, schema: schema)
        let store = PostgresDataStore(url: url, options: .init(schema: schema, logger: .benchmark))
        try store.setup()
        defer { try? store.tearDown() }
        let raw = try RawPostgres(url: url)
        try raw.prepare("query", """
            SELECT persist_id, name, city, rating, open, score, updated, note FROM "\(schema)"."Restaurant" \
            WHERE city = $1 AND rating >= $2 ORDER BY score DESC, persist_id LIMIT 50
            """, types: [25, 20])
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
                    let result = try raw.run("query", [RawPostgres.text(BenchmarkRestaurant.cities[query % 100]),
                                                       RawPostgres.int8(2)])
                    defer { PQclear(result) }
                    return (0..<PQntuples(result)).map { index in
                        let row = RawPostgres.Row(result: result, row: index)
                        let restaurant = BenchmarkRestaurant(
                            id: Int(row.int64(0)), name: row.string(1), city: row.string(2), rating: Int(row.int64(3)),
                            open: row.bool(4), score: row.double(5), updated: row.date(6),
                            note: row.isNull(7) ? nil : row.string(7))
                        return Int64(restaurant.id)
                    }
                }
            })
        guard libraryRows == baselineRows else { throw BenchmarkError("the library and the SQL found different rows") }
        return result(items: items * queries, library: library, baseline: baseline, peak: peak,
                      note: "\(queries) queries over \(items) items; items = items considered")
    }
}
