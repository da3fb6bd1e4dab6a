import Foundation
import Persist
import PersistSQLite

/// 200,000 `DataStoreEntity` values inserted into SQLite in one `writeSync`, against prepared
/// inserts of the same columns in one transaction.
struct InsertTypedScenario: BenchmarkScenario {
    let name = "insert-typed-sqlite"
    let defaultItems = 200_000

    /// The table the store creates for restaurants (see the SQLite storage format article), made by
    /// hand for the baseline.
    static let table = """
        CREATE TABLE "Restaurant" ("persist_id" NOT NULL, "name", "city", "rating", "open", "score", "updated", "note");
        CREATE UNIQUE INDEX "persist_key:Restaurant" ON "Restaurant" ("persist_id")
        """

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let restaurants = (0..<items).map(BenchmarkRestaurant.init(number:))
        let libraryPath = directory.appendingPathComponent("insert-library.sqlite").path
        let baselinePath = directory.appendingPathComponent("insert-baseline.sqlite").path
        var store: SQLiteDataStore?
        var raw: RawSQLite?
        let (library, baseline, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: {
                try store?.tearDown()
                store = nil
                raw = nil
                try SQLiteDataStore.deleteFiles(atPath: libraryPath)
                try SQLiteDataStore.deleteFiles(atPath: baselinePath)
                let opened = SQLiteDataStore(path: libraryPath, options: .init(logger: .benchmark))
                try opened.setup()
                store = opened
                let connection = try RawSQLite(path: baselinePath)
                try connection.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
                try connection.execute(Self.table)
                raw = connection
            },
            library: {
                try store?.writeSync { accessor in
                    for restaurant in restaurants { try accessor.insert(restaurant) }
                }
            },
            baseline: {
                guard let raw else { return }
                let insert = try raw.prepare(
                    #"INSERT INTO "Restaurant" ("persist_id", "name", "city", "rating", "open", "score", "updated", "note") VALUES (?, ?, ?, ?, ?, ?, ?, ?)"#)
                try raw.execute("BEGIN IMMEDIATE")
                for restaurant in restaurants {
                    insert.bindColumns(of: restaurant)
                    _ = try insert.step()
                    insert.reset()
                }
                try raw.execute("COMMIT")
            })
        try store?.tearDown()
        return result(items: items, library: library, baseline: baseline, peak: peak)
    }
}
