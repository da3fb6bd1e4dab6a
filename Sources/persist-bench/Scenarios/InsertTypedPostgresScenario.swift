import CLibPQ
import Foundation
import Persist
import PersistPostgres

/// 200,000 `DataStoreEntity` values inserted into PostgreSQL in one `writeSync`, against prepared
/// inserts of the same columns in one transaction through raw libpq.
struct InsertTypedPostgresScenario: BenchmarkScenario {
    let name = "insert-typed-postgres"
    let defaultItems = 200_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let url = try BenchmarkServer.url()
        let restaurants = (0..<items).map(BenchmarkRestaurant.init(number:))
        let librarySchema = BenchmarkServer.newSchema(name)
        let baselineSchema = BenchmarkServer.newSchema(name + "-raw")
        defer {
            BenchmarkDataset.dropPostgres(librarySchema, url: url)
            BenchmarkDataset.dropPostgres(baselineSchema, url: url)
        }
        let raw = try RawPostgres(url: url)
        var store: PostgresDataStore?
        let (library, baseline, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: {
                try store?.tearDown()
                BenchmarkDataset.dropPostgres(librarySchema, url: url)
                let opened = PostgresDataStore(url: url, options: .init(schema: librarySchema, logger: .benchmark))
                try opened.setup()
                store = opened
                // The table the store makes for restaurants, made by hand for the baseline.
                try raw.execute("""
                    DROP SCHEMA IF EXISTS "\(baselineSchema)" CASCADE; CREATE SCHEMA "\(baselineSchema)";
                    CREATE TYPE "\(baselineSchema)".persist_date AS (at timestamptz, seconds double precision);
                    CREATE TABLE "\(baselineSchema)"."Restaurant" (persist_id bigint PRIMARY KEY, city text COLLATE "C",
                        name text COLLATE "C", open boolean, rating bigint, score double precision,
                        updated "\(baselineSchema)".persist_date, note text COLLATE "C");
                    DEALLOCATE ALL
                    """)
                try raw.prepare("insert", """
                    INSERT INTO "\(baselineSchema)"."Restaurant" (persist_id, name, city, rating, open, score, updated, note) \
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                    """, types: [20, 25, 25, 20, 16, 701, 0, 25])
            },
            library: {
                try store?.writeSync { accessor in
                    for restaurant in restaurants { try accessor.insert(restaurant) }
                }
            },
            baseline: {
                try raw.execute("BEGIN")
                for restaurant in restaurants {
                    PQclear(try raw.run("insert", [
                        RawPostgres.int8(Int64(restaurant.id)), RawPostgres.text(restaurant.name),
                        RawPostgres.text(restaurant.city), RawPostgres.int8(Int64(restaurant.rating)),
                        RawPostgres.bool(restaurant.open), RawPostgres.float8(restaurant.score),
                        RawPostgres.date(restaurant.updated), restaurant.note.map(RawPostgres.text),
                    ]))
                }
                try raw.execute("COMMIT")
            })
        try store?.tearDown()
        return result(items: items, library: library, baseline: baseline, peak: peak)
    }
}
