/// The values of `time`, `timetz` and `interval` columns: strings in PostgreSQL's own output
/// (`DateStyle` ISO, `IntervalStyle` postgres), made from and turned into the binary forms.
///
/// ```swift
/// TimeTextCoding.time(micros: 14_706_500_000)                  // "04:05:06.5"
/// TimeTextCoding.interval(micros: 0, days: 3, months: 14)      // "1 year 2 mons 3 days"
/// TimeTextCoding.parseInterval("1 year 2 mons 3 days")         // (0, 3, 14)
/// ```
enum TimeTextCoding {
    static let microsPerSecond: Int64 = 1_000_000
    static let microsPerDay: Int64 = 86_400_000_000

    // MARK: Output

    /// `HH:MM:SS` and a fraction without trailing zeros, as PostgreSQL prints a `time`.
    static func time(micros: Int64) -> String {
        let hours = micros / 3_600_000_000
        let minutes = micros / 60_000_000 % 60
        let seconds = micros / microsPerSecond % 60
        return "\(pad(hours)):\(pad(minutes)):\(pad(seconds))\(fraction(micros % microsPerSecond))"
    }

    /// A `timetz`: its time, then its offset east of UTC (PostgreSQL stores seconds west).
    static func timetz(micros: Int64, secondsWest: Int32) -> String {
        time(micros: micros) + zone(secondsWest: Int(secondsWest))
    }

    /// `+HH`, `+HH:MM` or `+HH:MM:SS`.
    static func zone(secondsWest: Int) -> String {
        let total = abs(secondsWest)
        let hours = total / 3600, minutes = total / 60 % 60, seconds = total % 60
        var text = (secondsWest <= 0 ? "+" : "-") + pad(Int64(hours))
        if seconds != 0 {
            text += ":\(pad(Int64(minutes))):\(pad(Int64(seconds)))"
        } else if minutes != 0 {
            text += ":\(pad(Int64(minutes)))"
        }
        return text
    }

    /// An `interval` as PostgreSQL prints it in the `postgres` style.
    static func interval(micros: Int64, days: Int32, months: Int32) -> String {
        if micros == .max, days == .max, months == .max { return "infinity" }
        if micros == .min, days == .min, months == .min { return "-infinity" }
        var text = ""
        var isZero = true
        var isBefore = false
        func part(_ value: Int64, _ unit: String) {
            guard value != 0 else { return }
            text += (isZero ? "" : " ") + (isBefore && value > 0 ? "+" : "") + "\(value) \(unit)\(value != 1 ? "s" : "")"
            isBefore = value < 0
            isZero = false
        }
        part(Int64(months / 12), "year")
        part(Int64(months % 12), "mon")
        part(Int64(days), "day")
        let hours = micros / 3_600_000_000
        let minutes = micros / 60_000_000 % 60
        let seconds = micros / microsPerSecond % 60
        let fractionMicros = micros % microsPerSecond
        if isZero || micros != 0 {
            let minus = hours < 0 || minutes < 0 || seconds < 0 || fractionMicros < 0
            text += (isZero ? "" : " ") + (minus ? "-" : isBefore ? "+" : "")
            text += "\(pad(hours.magnitude)):\(pad(minutes.magnitude)):\(pad(seconds.magnitude))"
            text += fraction(fractionMicros)
        }
        return text
    }

    private static func pad(_ value: some BinaryInteger) -> String {
        let text = String(value.magnitude)
        return text.count < 2 ? "0" + text : text
    }

    /// `.ffffff` without trailing zeros; empty for none.
    private static func fraction(_ micros: Int64) -> String {
        guard micros != 0 else { return "" }
        var digits = String(micros.magnitude)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "." + digits
    }

    // MARK: Input

    /// The microseconds of `HH:MM`, `HH:MM:SS` or `HH:MM:SS.ffffff` (at most six decimals), from
    /// `00:00:00` to `24:00:00`; `nil` for anything else.
    static func parseTime(_ text: Substring) -> Int64? {
        guard let micros = clock(text, maximumHours: 24), micros <= microsPerDay else { return nil }
        return micros
    }

    /// A `timetz`'s time and its offset in seconds west of UTC: a time, then `+` or `-` and `HH`,
    /// `HH:MM`, `HH:MM:SS` or `HHMM` (at most 15:59:59).
    static func parseTimetz(_ text: String) -> (micros: Int64, secondsWest: Int32)? {
        guard let signIndex = text.lastIndex(where: { $0 == "+" || $0 == "-" }), signIndex != text.startIndex,
              let micros = parseTime(text[..<signIndex]) else { return nil }
        var zoneText = text[text.index(after: signIndex)...]
        if zoneText.count == 4, zoneText.allSatisfy(\.isASCIIDigit) {
            zoneText = zoneText.prefix(2) + ":" + zoneText.suffix(2)
        }
        let fields = zoneText.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count), fields.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
              let hours = Int(fields[0]), hours <= 15 else { return nil }
        let minutes = fields.count > 1 ? Int(fields[1]) ?? 60 : 0
        let seconds = fields.count > 2 ? Int(fields[2]) ?? 60 : 0
        guard minutes < 60, seconds < 60 else { return nil }
        let east = hours * 3600 + minutes * 60 + seconds
        return (micros, Int32(text[signIndex] == "+" ? -east : east))
    }

    /// An `interval` in the `postgres` style PostgreSQL prints (`1 year 2 mons -3 days +04:05:06.5`),
    /// with `week`, `hour`, `minute` and `second` units too; `nil` for anything else.
    static func parseInterval(_ text: String) -> (micros: Int64, days: Int32, months: Int32)? {
        if text == "infinity" { return (.max, .max, .max) }
        if text == "-infinity" { return (.min, .min, .min) }
        let words = text.split(separator: " ")
        guard !words.isEmpty else { return nil }
        var months: Int64 = 0, days: Int64 = 0, micros: Int64 = 0
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.contains(":") {
                let negative = word.hasPrefix("-")
                let body = word.first == "-" || word.first == "+" ? word.dropFirst() : word
                guard let clock = clock(body, maximumHours: Int64.max / 3_600_000_000 - 1) else { return nil }
                micros += negative ? -clock : clock
                index += 1
                continue
            }
            guard index + 1 < words.count, let number = Int64(word.first == "+" ? word.dropFirst() : word) else {
                return nil
            }
            let unit = words[index + 1]
            let (product, overflow): (Int64, Bool)
            switch unit {
            case "year", "years": (product, overflow) = number.multipliedReportingOverflow(by: 12); months += product
            case "mon", "mons": (product, overflow) = (number, false); months += number
            case "week", "weeks": (product, overflow) = number.multipliedReportingOverflow(by: 7); days += product
            case "day", "days": (product, overflow) = (number, false); days += number
            case "hour", "hours": (product, overflow) = number.multipliedReportingOverflow(by: 3_600_000_000); micros += product
            case "min", "mins", "minute", "minutes":
                (product, overflow) = number.multipliedReportingOverflow(by: 60_000_000); micros += product
            case "sec", "secs", "second", "seconds":
                (product, overflow) = number.multipliedReportingOverflow(by: microsPerSecond); micros += product
            default: return nil
            }
            guard !overflow else { return nil }
            index += 2
        }
        guard let day = Int32(exactly: days), let month = Int32(exactly: months) else { return nil }
        return (micros, day, month)
    }

    /// The microseconds of `H…H:MM[:SS[.ffffff]]`.
    private static func clock(_ text: Substring, maximumHours: Int64) -> Int64? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3 else { return nil }
        guard !fields[0].isEmpty, fields[0].allSatisfy(\.isASCIIDigit), let hours = Int64(fields[0]), hours <= maximumHours,
              fields[1].count == 2, fields[1].allSatisfy(\.isASCIIDigit), let minutes = Int64(fields[1]), minutes < 60
        else { return nil }
        var micros = hours * 3_600_000_000 + minutes * 60_000_000
        if fields.count == 3 {
            let parts = fields[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0].count == 2, parts[0].allSatisfy(\.isASCIIDigit), let seconds = Int64(parts[0]), seconds < 60
            else { return nil }
            micros += seconds * microsPerSecond
            if parts.count == 2 {
                let digits = parts[1]
                guard (1...6).contains(digits.count), digits.allSatisfy(\.isASCIIDigit),
                      let value = Int64(digits + String(repeating: "0", count: 6 - digits.count)) else { return nil }
                micros += value
            }
        }
        return micros
    }
}

extension Character {
    /// Whether the character is one of the ASCII digits 0–9.
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
