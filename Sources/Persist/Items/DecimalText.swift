import Foundation

/// The exact text of a `Decimal`, and the strict parse back: what every store writes for a
/// ``Value/decimal(_:)`` value where it keeps digits (a key-value record, a NUMERIC column of
/// SQLite, PostgreSQL's `numeric` text, JSON), and how it reads them.
///
/// `Decimal(string:)` alone would read `"12abc"` as 12 and round a 40-digit number to 38 digits
/// without a word; ``parse(_:)`` refuses both.
///
/// ```swift
/// DecimalText.parse("12345678901234567.89")   // exact
/// DecimalText.parse("1e400")                   // nil: beyond Decimal's range
/// ```
package enum DecimalText {
    /// The text of `decimal`: plain digits with a point where needed (`-12.5`, `0.001`), `NaN`
    /// for NaN. Equal decimals give the same text.
    package static func text(_ decimal: Decimal) -> String {
        decimal.isNaN ? "NaN" : decimal.description
    }

    /// The decimal `text` spells, exactly: an optional sign, digits with at most one point, an
    /// optional exponent, or `NaN`; `nil` for anything else and for a number `Decimal` cannot
    /// hold exactly (more than 38 significant digits, or beyond its exponent range).
    package static func parse(_ text: some StringProtocol) -> Decimal? {
        if text == "NaN" { return .nan }
        guard let spelled = Spelled(text), let decimal = Decimal(string: String(text), locale: nil) else { return nil }
        guard let back = Spelled(decimal.description), back == spelled else { return nil }
        return decimal
    }

    /// The decimal nearest to `double` whose shortest text gives `double` back (`0.1` for the
    /// double 0.1); `nil` for an infinity.
    package static func decimal(nearest double: Double) -> Decimal? {
        if double.isNaN { return .nan }
        guard double.isFinite else { return nil }
        return parse("\(double)")
    }

    /// A number's sign, significant digits and exponent, so that `1.50`, `15e-1` and `1.5` compare equal.
    private struct Spelled: Equatable {
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0

        init?(_ text: some StringProtocol) {
            var bytes = Substring(text).utf8[...]
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") {
                negative = bytes.first == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            var sawDigit = false
            var afterPoint = false
            var pointShift = 0
            while let byte = bytes.first {
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    sawDigit = true
                    if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
                    if afterPoint { pointShift -= 1 }
                } else if byte == UInt8(ascii: "."), !afterPoint {
                    afterPoint = true
                } else {
                    break
                }
                bytes = bytes.dropFirst()
            }
            guard sawDigit else { return nil }
            var written = 0
            if let mark = bytes.first, mark == UInt8(ascii: "e") || mark == UInt8(ascii: "E") {
                bytes = bytes.dropFirst()
                var exponentNegative = false
                if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") {
                    exponentNegative = bytes.first == UInt8(ascii: "-")
                    bytes = bytes.dropFirst()
                }
                var exponentDigits = 0
                while let byte = bytes.first, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    guard written < 100_000 else { return nil }
                    written = written * 10 + Int(byte - UInt8(ascii: "0"))
                    exponentDigits += 1
                    bytes = bytes.dropFirst()
                }
                guard exponentDigits > 0 else { return nil }
                if exponentNegative { written = -written }
            }
            guard bytes.isEmpty else { return nil }
            // Digits after the point that were leading zeros still shift the point.
            exponent = written + pointShift
            while digits.last == UInt8(ascii: "0") {
                digits.removeLast()
                exponent += 1
            }
            if digits.isEmpty {
                negative = false
                exponent = 0
            }
        }
    }
}
