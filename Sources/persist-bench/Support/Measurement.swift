import Dispatch
import Foundation

/// One benchmark result line.
struct BenchmarkResult: Codable, Sendable {
    var scenario: String
    var items: Int
    var seconds: Double
    var itemsPerS: Double
    var baselineItemsPerS: Double
    var ratio: Double
    var peakRssMb: Double
    var note: String?
    /// For latency scenarios: the median and 99th percentile, in microseconds.
    var medianUs: Double?
    var p99Us: Double?
    /// Further numbers of a scenario (seconds of each baseline, end-to-end times, ratios), by name.
    var measurements: [String: Double]?

    /// A result from the median seconds of the library and the baseline on `items` items.
    init(scenario: String, items: Int, library: Double, baseline: Double, peak: Double, note: String?,
         measurements: [String: Double]? = nil) {
        let itemsPerSecond = library > 0 ? Double(items) / library : 0
        let baselinePerSecond = baseline > 0 ? Double(items) / baseline : 0
        self.init(scenario: scenario, items: items, seconds: Self.rounded(library), itemsPerS: itemsPerSecond.rounded(),
                  baselineItemsPerS: baselinePerSecond.rounded(),
                  ratio: Self.rounded(baselinePerSecond > 0 ? itemsPerSecond / baselinePerSecond : 0),
                  peakRssMb: Self.rounded(peak), note: note, measurements: measurements)
    }

    init(scenario: String, items: Int, seconds: Double, itemsPerS: Double, baselineItemsPerS: Double, ratio: Double,
         peakRssMb: Double, note: String?, medianUs: Double? = nil, p99Us: Double? = nil,
         measurements: [String: Double]? = nil) {
        self.scenario = scenario
        self.items = items
        self.seconds = seconds
        self.itemsPerS = itemsPerS
        self.baselineItemsPerS = baselineItemsPerS
        self.ratio = ratio
        self.peakRssMb = peakRssMb
        self.note = note
        self.medianUs = medianUs
        self.p99Us = p99Us
        self.measurements = measurements
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// Times a library run and a baseline run of the same work, alternately, and reports medians.
struct AlternatingMeasurement {
    var repetitions: Int

    /// Runs `prepare` before every repetition (untimed), then alternately `library` and `baseline`
    /// (timed), and returns the median seconds of each; then runs `library` once more, untimed,
    /// for its peak memory.
    ///
    /// The timed runs start from the heap as the run before left it, whichever side they are: a
    /// run that starts after the allocator gave its free memory back to the system faults in
    /// every page it fills, one that starts with the freed memory of the run before does not.
    /// Only the peak's run starts from a trimmed heap (see ``PeakMemory/reset()``), which would
    /// otherwise count memory freed by earlier runs. Trimming before every library run, as this
    /// measurement once did, cost the library about 5% of a typed fetch that the baseline never paid.
    func run(
        prepare: () throws -> Void,
        library: () throws -> Void,
        baseline: () throws -> Void
    ) throws -> (library: Double, baseline: Double, peakMegabytes: Double) {
        var libraryTimes: [Double] = []
        var baselineTimes: [Double] = []
        for repetition in 0..<repetitions {
            // Alternate which side goes first, so neither always runs on a warmer machine.
            let order: [Bool] = repetition.isMultiple(of: 2) ? [true, false] : [false, true]
            for isLibrary in order {
                try prepare()
                if isLibrary {
                    libraryTimes.append(try Self.time(library))
                } else {
                    baselineTimes.append(try Self.time(baseline))
                }
            }
        }
        try prepare()
        PeakMemory.reset()
        try library()
        return (Self.median(libraryTimes), Self.median(baselineTimes), PeakMemory.megabytes())
    }

    static func time(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// The value below which `fraction` of `values` fall (nearest rank).
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
