import Foundation
import Persist

/// Dates in PostgreSQL's binary forms: `timestamptz` and `timestamp` as microseconds since
/// 2000-01-01 00:00:00 UTC, `date` as days since 2000-01-01, both with their largest and smallest
/// values standing for `infinity` and `-infinity`; and the store's own `persist_date` composite.
enum TimeCoding {
    /// Microseconds from 2000-01-01 (PostgreSQL's epoch) to 2001-01-01 (Foundation's reference date).
    static let referenceOffsetMicroseconds: Int64 = 366 * 86_400 * 1_000_000
    /// Days from 2000-01-01 to 2001-01-01.
    static let referenceOffsetDays: Int64 = 366
    /// The first microsecond PostgreSQL timestamps hold: 4714-11-24 00:00:00 BC.
    static let minimumMicroseconds: Int64 = -211_813_488_000_000_000
    /// The first microsecond past PostgreSQL's timestamps: 294277-01-01 00:00:00.
    static let endMicroseconds: Int64 = 9_223_371_331_200_000_000
    /// The first and past-the-last day of PostgreSQL's `date` (4714-11-24 BC to 5874897-12-31).
    static let minimumDay: Int64 = -2_451_545
    static let endDay: Int64 = 2_147_483_494 - 2_451_545

    // MARK: Timestamps

    /// The date of a timestamp: ±infinity for PostgreSQL's infinities; otherwise the nearest
    /// double of the exact seconds since 2001-01-01.
    static func date(fromMicroseconds microseconds: Int64) -> Date {
        if microseconds == .max { return Date(timeIntervalSinceReferenceDate: .infinity) }
        if microseconds == .min { return Date(timeIntervalSinceReferenceDate: -.infinity) }
        return Date(timeIntervalSinceReferenceDate: seconds(fromMicroseconds: microseconds))
    }

    /// Seconds since 2001-01-01 for microseconds since 2000-01-01 (finite ones): one rounding
    /// (the division), so it never decreases as the microseconds grow.
    static func seconds(fromMicroseconds microseconds: Int64) -> Double {
        let (shifted, overflow) = microseconds.subtractingReportingOverflow(referenceOffsetMicroseconds)
        if overflow { return microseconds < 0 ? -.infinity : .infinity }
        return Double(shifted) / 1_000_000
    }

    /// The timestamp for a date, rounded to the nearest microsecond: PostgreSQL's `infinity` and
    /// `-infinity` for infinite dates; `nil` for NaN and for dates outside PostgreSQL's range.
    static func microseconds(from date: Date) -> Int64? {
        let seconds = date.timeIntervalSinceReferenceDate
        if seconds.isNaN { return nil }
        if seconds.isInfinite { return seconds > 0 ? .max : .min }
        let micros = (seconds * 1_000_000).rounded(.toNearestOrEven)
        guard micros > -9.2e18, micros < 9.2e18 else { return nil }
        let (value, overflow) = Int64(micros).addingReportingOverflow(referenceOffsetMicroseconds)
        guard !overflow, value >= minimumMicroseconds, value < endMicroseconds else { return nil }
        return value
    }

    /// The timestamp for a date, clamped to PostgreSQL's infinities when out of its range (NaN
    /// included, as `-infinity`): the `at` part of a `persist_date`, which is only for people.
    static func clampedMicroseconds(from date: Date) -> Int64 {
        if let micros = microseconds(from: date) { return micros }
        let seconds = date.timeIntervalSinceReferenceDate
        return seconds > 0 ? .max : .min
    }

    // MARK: Days

    /// The date at midnight UTC of a `date` value (days since 2000-01-01).
    static func date(fromDays days: Int32) -> Date {
        if days == .max { return Date(timeIntervalSinceReferenceDate: .infinity) }
        if days == .min { return Date(timeIntervalSinceReferenceDate: -.infinity) }
        return Date(timeIntervalSinceReferenceDate: seconds(fromDays: Int64(days)))
    }

    /// Seconds since 2001-01-01 at the start of `days` since 2000-01-01 (exact).
    static func seconds(fromDays days: Int64) -> Double {
        Double((days - referenceOffsetDays) * 86_400)
    }

    /// The `date` value of a date that is exactly midnight UTC, or an infinity; `nil` otherwise.
    static func days(from date: Date) -> Int32? {
        let seconds = date.timeIntervalSinceReferenceDate
        if seconds.isNaN { return nil }
        if seconds.isInfinite { return seconds > 0 ? .max : .min }
        let days = (seconds / 86_400).rounded(.down)
        guard days > -1e12, days < 1e12 else { return nil }
        let value = Int64(days) + referenceOffsetDays
        guard value >= minimumDay, value < endDay, Self.seconds(fromDays: value) == seconds else { return nil }
        return Int32(value)
    }

    // MARK: persist_date

    /// The binary `persist_date` composite for a date: `(at timestamptz, seconds double precision)`,
    /// `at` rounded to the microsecond (NULL for NaN, clamped to the infinities outside
    /// PostgreSQL's range), `seconds` exact.
    static func composite(_ date: Date) -> [UInt8] {
        var bytes: [UInt8] = []
        appendComposite(date, to: &bytes)
        return bytes
    }

    /// The length of ``composite(_:)``'s bytes for `date`.
    static func compositeLength(_ date: Date) -> Int {
        date.timeIntervalSinceReferenceDate.isNaN ? 28 : 36
    }

    /// Appends ``composite(_:)``'s bytes for `date` to `bytes`.
    static func appendComposite(_ date: Date, to bytes: inout [UInt8]) {
        let seconds = date.timeIntervalSinceReferenceDate
        bytes.appendBigEndian(Int32(2))
        bytes.appendBigEndian(PGType.timestamptz)
        if seconds.isNaN {
            bytes.appendBigEndian(Int32(-1))
        } else {
            bytes.appendBigEndian(Int32(8))
            bytes.appendBigEndian(UInt64(bitPattern: clampedMicroseconds(from: date)))
        }
        bytes.appendBigEndian(PGType.float8)
        bytes.appendBigEndian(Int32(8))
        bytes.appendBigEndian(seconds.bitPattern)
    }

    /// The date a `persist_date` holds: its `seconds`, or when another program left them NULL, its
    /// `at`; `nil` when both are NULL. Throws ``DecodingFailure`` for other bytes.
    static func date(fromComposite bytes: UnsafeRawBufferPointer) throws -> Date? {
        func corrupt() -> DecodingFailure {
            DecodingFailure("holds a persist_date that is not (timestamptz, double precision)")
        }
        var reader = RawReader(bytes)
        guard let count = reader.int32(), count == 2 else { throw corrupt() }
        var at: Int64?
        var seconds: Double?
        for field in 0..<2 {
            guard let type = reader.uint32(), let length = reader.int32() else { throw corrupt() }
            let expected = field == 0 ? PGType.timestamptz : PGType.float8
            guard type == expected else { throw corrupt() }
            if length == -1 { continue }
            guard length == 8, let bits = reader.uint64() else { throw corrupt() }
            if field == 0 { at = Int64(bitPattern: bits) } else { seconds = Double(bitPattern: bits) }
        }
        guard reader.isAtEnd else { throw corrupt() }
        if let seconds { return Date(timeIntervalSinceReferenceDate: seconds) }
        return at.map(date(fromMicroseconds:))
    }
}

/// Reads big-endian integers from raw bytes, without trapping on short input.
struct RawReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func uint64() -> UInt64? { read(UInt64.self) }
    mutating func uint32() -> UInt32? { read(UInt32.self) }
    mutating func int32() -> Int32? { read(UInt32.self).map { Int32(bitPattern: $0) } }

    mutating func bytes(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    private mutating func read<T: FixedWidthInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard let slice = bytes(size) else { return nil }
        return T(bigEndianBytes: slice)
    }
}
