import Foundation
import Persist
import PersistGDBM

/// Write blocks of 1,000 items into GDBM, journaled, `.normal` durability, against raw
/// `gdbm_store` of the same number of keys and values with one `gdbm_sync` per block.
struct WriteBlocksScenario: BenchmarkScenario {
    let name = "write-blocks-gdbm"
    let defaultItems = 200_000
    let blockSize = 1_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let restaurants = try (0..<items).map { try BenchmarkRestaurant(number: $0).makeItem() }
        // The baseline stores bytes of the same sizes: the item's canonical encoding under a
        // key made of the type and the identifier.
        let pairs: [(key: [UInt8], value: [UInt8])] = restaurants.map { item in
            (Array("Restaurant".utf8) + [0] + BinaryValueCoding.encode(item.id.value), CanonicalItemEncoding.encode(item))
        }
        let libraryPath = directory.appendingPathComponent("blocks-library.gdbm").path
        let baselinePath = directory.appendingPathComponent("blocks-baseline.gdbm").path
        var store: GDBMDataStore?
        var raw: RawGDBM?
        let (library, baseline, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: {
                try store?.tearDown()
                store = nil
                raw = nil
                for path in [libraryPath, libraryPath + "-journal", baselinePath] {
                    try? FileManager.default.removeItem(atPath: path)
                }
                let opened = GDBMDataStore(path: libraryPath, options: .init(logger: .benchmark))
                try opened.setup()
                store = opened
                raw = try RawGDBM(path: baselinePath, mode: .create)
            },
            library: {
                var start = 0
                while start < restaurants.count {
                    let block = restaurants[start..<min(start + blockSize, restaurants.count)]
                    try store?.writeSync { accessor in
                        for item in block { try accessor.insert(item) }
                    }
                    start += blockSize
                }
            },
            baseline: {
                guard let raw else { return }
                for (index, pair) in pairs.enumerated() {
                    try pair.key.withUnsafeBytes { key in
                        try pair.value.withUnsafeBytes { value in try raw.store(key: key, value: value) }
                    }
                    if (index + 1) % blockSize == 0 || index == pairs.count - 1 { try raw.sync() }
                }
            })
        try store?.tearDown()
        return result(items: items, library: library, baseline: baseline, peak: peak,
                      note: "\((items + blockSize - 1) / blockSize) blocks of \(blockSize)")
    }
}
