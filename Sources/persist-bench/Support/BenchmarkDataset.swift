import Foundation
import Persist
import PersistGDBM
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
}
