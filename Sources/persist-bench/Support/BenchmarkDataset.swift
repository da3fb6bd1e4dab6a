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

    /// A GDBM file at `path` written with the C API, as another program would: `count` pairs of
    /// a 12-byte key and a value of 40 to 160 bytes, both deterministic.
    static func rawGDBM(count: Int, at path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        let file = try RawGDBM(path: path, mode: .create)
        var value = [UInt8](repeating: 0, count: 160)
        for number in 0..<count {
            var key = Array("key-".utf8)
            var mixed = UInt64(number) &* 0x9E37_79B9_7F4A_7C15
            for _ in 0..<8 {
                key.append(UInt8(truncatingIfNeeded: mixed))
                mixed >>= 8
            }
            let length = 40 + Int(UInt64(number) &* 2_654_435_761 % 121)
            for index in 0..<length { value[index] = UInt8(truncatingIfNeeded: number &+ index &* 31) }
            try key.withUnsafeBytes { keyBytes in
                try value.withUnsafeBytes { try file.store(key: keyBytes, value: UnsafeRawBufferPointer(rebasing: $0[..<length])) }
            }
        }
    }

    /// The legacy table of `legacySQLite(count:at:)` and its columns, the key first.
    static let legacyTable = "restaurants"
    static let legacyColumns = ["id", "name", "city", "rating", "open", "score", "updated", "note"]

    /// A database at `path` written with plain SQL, as legacy code would: a table of `count`
    /// restaurants with an INTEGER PRIMARY KEY and typed columns.
    static func legacySQLite(count: Int, at path: String) throws {
        try SQLiteDataStore.deleteFiles(atPath: path)
        let raw = try RawSQLite(path: path)
        try raw.execute("""
            CREATE TABLE restaurants (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, rating INTEGER,
                                      open INTEGER, score REAL, updated REAL, note TEXT)
            """)
        let insert = try raw.prepare("INSERT INTO restaurants VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        try raw.execute("BEGIN")
        for number in 0..<count {
            insert.bindColumns(of: BenchmarkRestaurant(number: number))
            _ = try insert.step()
            insert.reset()
        }
        try raw.execute("COMMIT")
    }
}
