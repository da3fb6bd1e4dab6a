import Foundation
import Persist
import PersistGDBM
import PersistPostgres
import PersistSQLite

/// The standard benchmark dataset: `BenchmarkRestaurant` items 0..<count.
enum BenchmarkDataset {
    /// Writes `count` restaurants into `store` in write blocks of 10,000.
    static func write(count: Int, to store: any DataStore) throws {
        var start = 0
        while start < count {
            let end = min(start + 10_000, count)
            try store.writeSync { accessor in
                for number in start..<end { try accessor.insert(BenchmarkRestaurant(number: number)) }
            }
            start = end
        }
    }

    /// A new SQLite database at `path` holding the dataset.
    static func sqlite(count: Int, at path: String) throws {
        try SQLiteDataStore.deleteFiles(atPath: path)
        let store = SQLiteDataStore(path: path, options: .init(logger: .benchmark))
        try store.setup()
        try write(count: count, to: store)
        try store.tearDown()
    }

    /// A new native GDBM file at `path` holding the dataset.
    static func gdbm(count: Int, at path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        let store = GDBMDataStore(path: path, options: .init(logger: .benchmark))
        try store.setup()
        try write(count: count, to: store)
        try store.tearDown()
    }

    /// A new schema `schema` on the PostgreSQL server at `url` holding the dataset: the first items
    /// written through the store (which creates the table it would), the rest loaded with binary
    /// COPY into that table, then analyzed.
    static func postgres(count: Int, url: String, schema: String) throws {
        let store = PostgresDataStore(url: url, options: .init(schema: schema, logger: .benchmark))
        try store.setup()
        let first = min(count, 2)
        try store.writeSync { accessor in
            for number in 0..<first { try accessor.insert(BenchmarkRestaurant(number: number)) }
        }
        try store.tearDown()
        guard count > first else { return }
        let connection = try PGConnection.connect(to: PostgresURL(url))
        defer { connection.close() }
        let table = "\"\(schema)\".\"Restaurant\""
        let rows = (first..<count).lazy.map { number -> [PGValue] in
            let restaurant = BenchmarkRestaurant(number: number)
            return [.int8(Int64(restaurant.id)), .text(restaurant.name), .text(restaurant.city), .int8(Int64(restaurant.rating)),
                    .bool(restaurant.open), .float8(restaurant.score), .raw(type: 0, bytes: RawPostgres.date(restaurant.updated)),
                    restaurant.note.map(PGValue.text) ?? .null]
        }
        try connection.copyIn("COPY \(table) (persist_id, name, city, rating, open, score, updated, note) FROM STDIN (FORMAT binary)",
                              rows: rows)
        try connection.executeScript("ANALYZE \(table)")
    }

    /// Drops a schema the PostgreSQL scenarios made.
    static func dropPostgres(_ schema: String, url: String) {
        guard let parsed = try? PostgresURL(url) else { return }
        try? PostgresDataStore.dropSchema(schema, at: parsed, options: .init(logger: .benchmark))
    }
}
