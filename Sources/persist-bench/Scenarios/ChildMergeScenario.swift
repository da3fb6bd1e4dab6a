import Foundation
import Persist
import PersistSQLite

/// A child store holding 100,000 changes merged into an SQLite store, against the same changes
/// written directly by the library in one write block.
struct ChildMergeScenario: BenchmarkScenario {
    let name = "child-merge"
    let defaultItems = 100_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let path = directory.appendingPathComponent("merge.sqlite").path
        try BenchmarkDataset.sqlite(count: items, at: path)
        let store = SQLiteDataStore(path: path, options: .init(logger: .benchmark))
        try store.setup()
        defer { try? store.tearDown() }
        // Each repetition writes a new generation of changes, so that every write changes rows.
        var generation = 0
        var changes: [Item] = []
        var child: (any DataStore)?
        let (library, baseline, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: {
                generation += 1
                changes = try (0..<items).map { number in
                    var restaurant = BenchmarkRestaurant(number: number)
                    restaurant.rating = (restaurant.rating + generation) % 5
                    restaurant.note = "changed in generation \(generation)"
                    return try restaurant.makeItem()
                }
                let fresh = try store.makeChildDataStore()
                try fresh.setup()
                let pending = changes
                try fresh.writeSync { accessor in
                    for item in pending { try accessor.save(item) }
                }
                child = fresh
            },
            library: {
                if let child { try store.merge(child) }
            },
            baseline: {
                let pending = changes
                try store.writeSync { accessor in
                    for item in pending { try accessor.save(item) }
                }
            })
        return result(items: items, library: library, baseline: baseline, peak: peak,
                      note: "baseline: the same changes written directly; target ratio 0.77 (merge at most 1.3 times as long)")
    }
}
