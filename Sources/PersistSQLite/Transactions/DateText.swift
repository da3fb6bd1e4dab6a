import Foundation

/// How dates are stored in columns declared `DATE`, `DATETIME` or `TIMESTAMP` (a migration's
/// target, from such a column of PostgreSQL or SQLite): ISO-8601 text in UTC that `sqlite3` and a
/// legacy app read, `2021-01-01 00:00:00`, date-only (`2021-01-01`) in a `DATE` column, with
/// fractional seconds only when needed and as many digits as it takes to give the same date back
/// bit for bit. A date no such text gives back (NaN, before year 1 or after 9999, a time of day
/// in a `DATE` column) has no text: its column falls back.
enum DateText {
    /// The text form of a column.
    enum Form: Sendable, Equatable {
        case dateTime, dateOnly
    }

    /// The form for a declared type; `nil` for a type that holds no dates as text.
    static func form(ofDeclaredType declaredType: String) -> Form? {
        let type = declaredType.lowercased().split(separator: "(").first.map(String.init)?
            .trimmingCharacters(in: .whitespaces) ?? ""
        if type == "date" { return .dateOnly }
        let base = type.split(separator: " ").first.map(String.init) ?? ""
        return ["datetime", "timestamp", "timestamptz"].contains(base) ? .dateTime : nil
    }

    private static let referenceDays: Int64 = 730_485  // days from 0001-01-01 to 2001-01-01

    /// The text of `date` in `form`, or `nil` when no text gives it back exactly.
    static func text(_ date: Date, _ form: Form) -> String? {
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite, abs(seconds) < 4e11 else { return nil }
        let whole = seconds.rounded(.down)
        let fraction = seconds - whole
        let total = Int64(whole)
        var days = total / 86_400
        var secondOfDay = total % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        guard let (year, month, day) = civil(days + referenceDays), (1...9999).contains(year) else { return nil }
        let datePart = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        if form == .dateOnly { return secondOfDay == 0 && fraction == 0 ? datePart : nil }
        let timePart = pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        guard fraction != 0 else { return datePart + " " + timePart }
        for digits in 1...40 {
            var decimals = String(format: "%.\(digits)f", fraction)
            guard decimals.hasPrefix("0."), let parsed = Double(decimals), whole + parsed == seconds else { continue }
            while decimals.hasSuffix("0") { decimals.removeLast() }
            return datePart + " " + timePart + decimals.dropFirst()
        }
        return nil
    }

    /// The date `text` spells in the forms ``text(_:_:)`` writes (a `T` between date and time is
    /// read too); `nil` for any other text.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10 || bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), bytes[4] == 45, let month = number(5..<7), bytes[7] == 45,
              let day = number(8..<10), (1...12).contains(month), day >= 1,
              let days = daysFromCivil(year, month, day), civil(days)?.day == day else { return nil }
        var seconds = Double((days - referenceDays) * 86_400)
        guard bytes.count > 10 else { return Date(timeIntervalSinceReferenceDate: seconds) }
        guard bytes[10] == 32 || bytes[10] == 84, let hour = number(11..<13), bytes[13] == 58,
              let minute = number(14..<16), bytes[16] == 58, let second = number(17..<19),
              hour < 24, minute < 60, second < 60 else { return nil }
        seconds += Double(hour * 3600 + minute * 60 + second)
        guard bytes.count > 19 else { return Date(timeIntervalSinceReferenceDate: seconds) }
        guard bytes[19] == 46, bytes.count > 20, bytes[20...].allSatisfy({ $0 >= 48 && $0 <= 57 }), let fraction = Double("0" + String(decoding: bytes[19...], as: UTF8.self))
        else { return nil }
        return Date(timeIntervalSinceReferenceDate: seconds + fraction)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// The year, month and day of a day number counted from 0001-01-01 (day 0), proleptic Gregorian.
    private static func civil(_ dayNumber: Int64) -> (year: Int64, month: Int64, day: Int64)? {
        guard dayNumber >= 0 else { return nil }
        // Days since 0000-03-01, in 400-year eras of 146,097 days.
        let z = dayNumber + 306
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func daysFromCivil(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64? {
        let y = month <= 2 ? year - 1 : year
        guard y >= 0 else { return nil }
        let era = y / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 306
    }
}
