import CLibPQ
import Foundation
import Persist
import PersistPostgres

/// 200,000 lookups by identifier in PostgreSQL, each in its own read block, against a prepared
/// select by key through raw libpq reading the same columns.
struct LookupPostgresScenario: BenchmarkScenario {
    let name = "lookup-id-postgres"
    let defaultItems = 200_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let url = try BenchmarkServer.url()
        let schema = BenchmarkServer.newSchema(name)
        defer { BenchmarkDataset.dropPostgres(schema, url: url) }
        try BenchmarkDataset.postgres(count: items, url: url, schema: schema)
        // Every identifier once, in a scattered but fixed order (as the SQLite lookups).
        let step = items % 7_919 == 0 ? 1 : 7_919
        let ids = (0..<items).map { Int64(($0 &* step) % items) }
        let store = PostgresDataStore(url: url, options: .init(schema: schema, logger: .benchmark))
        try store.setup()
        defer { try? store.tearDown() }
        let raw = try RawPostgres(url: url)
        try raw.prepare("lookup", """
            SELECT persist_id, name, city, rating, open, score, updated, note FROM "\(schema)"."Restaurant" \
            WHERE persist_id = $1
            """, types: [20])
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
                    let result = try raw.run("lookup", [RawPostgres.int8(id)])
                    if PQntuples(result) == 1 {
                        let row = RawPostgres.Row(result: result, row: 0)
                        let restaurant = BenchmarkRestaurant(
                            id: Int(row.int64(0)), name: row.string(1), city: row.string(2), rating: Int(row.int64(3)),
                            open: row.bool(4), score: row.double(5), updated: row.date(6),
                            note: row.isNull(7) ? nil : row.string(7))
                        if restaurant.id == id { found += 1 }
                    }
                    PQclear(result)
                }
            })
        guard found == items else { throw BenchmarkError("lookups found \(found) of \(items) items") }
        return result(items: items, library: library, baseline: baseline, peak: peak)
    }
}
