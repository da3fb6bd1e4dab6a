import Dispatch
import Foundation
import Persist
import PersistSQLite

/// Commit to delivery of a live query on an SQLite file: each write block updates one item of
/// the observed request, and the time from the end of the block (just before its commit) to the
/// consumer receiving the new result is one sample. The baseline is the same commit and the same
/// query re-run by hand with the raw C API on one thread, at the same durability: what delivery
/// to another task cannot beat.
struct ObserveLatencyScenario: BenchmarkScenario {
    let name = "observe-latency"
    let defaultItems = 2_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let path = directory.appendingPathComponent("observe.sqlite").path
        try SQLiteDataStore.deleteFiles(atPath: path)
        let store = SQLiteDataStore(path: path, options: .init(logger: .benchmark))
        try store.setup()
        defer { try? store.tearDown() }
        try store.writeSync { accessor in
            for number in 0..<50 { try accessor.insert(BenchmarkRestaurant(number: number)) }
        }
        var request = DataStoreRequest(itemType: BenchmarkRestaurant.itemType)
        request.filter = .attribute("city") == .string(BenchmarkRestaurant(number: 0).city)
        let raw = try RawSQLite(path: path)
        // The store's durability: WAL with synchronous=NORMAL, no fsync per commit.
        try raw.execute("PRAGMA synchronous = NORMAL")
        let update = try raw.prepare(#"UPDATE "Restaurant" SET "rating" = ?1 WHERE "persist_id" = 0"#)
        let select = try raw.prepare(#"SELECT "persist_id", "rating" FROM "Restaurant" WHERE "city" = ?1 ORDER BY "persist_id""#)
        var samples: [Double] = []
        var round: Int64 = 10
        let (library, baseline, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: {},
            library: {
                samples = try measure(store, request, commits: items, startingAt: &round)
            },
            baseline: {
                for _ in 0..<items {
                    round += 1
                    update.bind(1, round)
                    _ = try update.step()
                    update.reset()
                    select.bind(1, BenchmarkRestaurant(number: 0).city)
                    var seen = false
                    while try select.step() {
                        if select.int64(0) == 0 { seen = select.int64(1) == round }
                    }
                    select.reset()
                    guard seen else { throw BenchmarkError("the raw query missed the update") }
                }
            })
        var line = result(items: items, library: library, baseline: baseline, peak: peak,
                          note: "\(items) commits to an observed request on an SQLite file; seconds = the sum of "
                            + "commit-to-delivery times; baseline = a raw UPDATE and the same SELECT")
        line.medianUs = Self.rounded(AlternatingMeasurement.median(samples) * 1e6)
        line.p99Us = Self.rounded(AlternatingMeasurement.percentile(samples, 0.99) * 1e6)
        return line
    }

    /// Commits `commits` changes to the observed item and returns each commit-to-delivery time.
    private func measure(_ store: SQLiteDataStore, _ request: DataStoreRequest, commits: Int,
                         startingAt round: inout Int64) throws -> [Double] {
        let delivered = Locked<(rating: Int64, at: UInt64)>((-1, 0))
        let signal = DispatchSemaphore(value: 0)
        let stream = store.observe(request)
        let consumer = Task {
            for try await items in stream {
                let rating = items.first { $0.id == 0 }?["rating"]?.intValue ?? -1
                delivered.withLock { $0 = (rating, DispatchTime.now().uptimeNanoseconds) }
                signal.signal()
            }
        }
        defer { consumer.cancel() }
        signal.wait()
        var samples: [Double] = []
        samples.reserveCapacity(commits)
        for _ in 0..<commits {
            round += 1
            let value = round
            let committing = try store.writeSync { accessor -> UInt64 in
                try accessor.mutableVersion(ofItem: Item(itemType: BenchmarkRestaurant.itemType, id: 0))?.set(.int(value), forKey: "rating")
                return DispatchTime.now().uptimeNanoseconds
            }
            while true {
                signal.wait()
                let (rating, at) = delivered.value
                if rating == value {
                    samples.append(Double(at &- committing) / 1e9)
                    break
                }
            }
        }
        return samples
    }
}
