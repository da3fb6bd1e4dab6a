import Foundation

/// PostgreSQL's binary `timestamptz`: microseconds since 2000-01-01 00:00:00 UTC, with
/// `Int64.max` and `Int64.min` for `infinity` and `-infinity`.
package enum PGTimestamp {
    /// Seconds from 2000-01-01 (PostgreSQL's epoch) to 2001-01-01 (Foundation's reference date).
    static let epochToReferenceDate: Int64 = 366 * 86_400

    /// The microseconds for `date`, rounded to the nearest microsecond; the infinities for dates
    /// beyond what 64 bits of microseconds hold.
    ///
    /// ```swift
    /// PGTimestamp.microseconds(from: Date(timeIntervalSinceReferenceDate: 0))   // 31_622_400_000_000
    /// ```
    package static func microseconds(from date: Date) -> Int64 {
        let microseconds = ((date.timeIntervalSinceReferenceDate + Double(epochToReferenceDate)) * 1_000_000).rounded()
        guard microseconds.isFinite else { return microseconds > 0 ? .max : .min }
        if microseconds >= 9.2e18 { return .max }
        if microseconds <= -9.2e18 { return .min }
        return Int64(microseconds)
    }

    /// The date for `microseconds`; the infinities become `Date.distantFuture` and `Date.distantPast`.
    package static func date(fromMicroseconds microseconds: Int64) -> Date {
        if microseconds == .max { return .distantFuture }
        if microseconds == .min { return .distantPast }
        let seconds = microseconds / 1_000_000 - epochToReferenceDate
        let fraction = Double(microseconds % 1_000_000) / 1_000_000
        return Date(timeIntervalSinceReferenceDate: Double(seconds) + fraction)
    }
}
