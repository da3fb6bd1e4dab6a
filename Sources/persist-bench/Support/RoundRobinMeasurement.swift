import Foundation

/// Times several ways of doing the same work (the library and raw loops), in turns, and keeps the
/// median seconds of each; the first side's peak memory is measured too. Every run starts after
/// `sync()`, so that no run pays for flushing another's writes.
struct RoundRobinMeasurement {
    struct Side {
        let name: String
        /// Untimed, before every run of this side (removing the previous run's files).
        var prepare: () throws -> Void = {}
        let body: () throws -> Void
    }

    var repetitions: Int

    /// Runs every side `repetitions` times, rotating which goes first; returns medians by name
    /// and the peak memory of the first side's runs.
    func run(_ sides: [Side]) throws -> (seconds: [String: Double], peakMegabytes: Double) {
        var times: [String: [Double]] = [:]
        var peak = 0.0
        for repetition in 0..<repetitions {
            for offset in 0..<sides.count {
                let index = (offset + repetition) % sides.count
                let side = sides[index]
                try side.prepare()
                // Each side starts with no other side's writes still going to the disk: they would
                // slow whichever side syncs next (ext4 commits them with it).
                sync()
                if index == 0 { PeakMemory.reset() }
                times[side.name, default: []].append(try AlternatingMeasurement.time(side.body))
                if index == 0 { peak = max(peak, PeakMemory.megabytes()) }
            }
        }
        return (times.mapValues(AlternatingMeasurement.median), peak)
    }
}
