import Foundation
import Persist

/// How exact decimals are stored in the `NUMERIC` columns the store creates for them, so that
/// `sqlite3` and a legacy app read the number, and how every form reads back (see the "SQLite
/// storage format" article).
///
/// SQLite's NUMERIC affinity turns bound TEXT into INTEGER or REAL and keeps 15 significant
/// digits, so each decimal is bound in the form the affinity leaves alone:
/// - an integer that fits 64 bits: INTEGER (`sqlite3` prints `42`);
/// - at most 15 significant digits: REAL, whose 15-digit text is the decimal (`1.5`, `0.001`);
/// - more digits: a BLOB of its ASCII text (`12345678901234567.89`, printed as those digits);
/// - NaN: the TEXT `NaN`, which no affinity converts.
enum DecimalCodec {
    /// The binding of `decimal` in a decimal column.
    static func binding(_ decimal: Decimal) -> SQLBinding {
        let text = DecimalText.text(decimal)
        if decimal.isNaN { return .text(text) }
        if let int = Int64(text) { return .int(int) }
        if significantDigits(text) <= 15, let double = Double(text), DecimalText.parse(fifteenDigits(double)) == decimal {
            return .double(double)
        }
        return .blob(Array(text.utf8))
    }

    /// The decimal a REAL of a decimal (or NUMERIC(p,s)) column stands for: the number its text of
    /// 15 significant digits spells, as `sqlite3` prints it.
    static func decimal(ofReal double: Double) -> Decimal? {
        double.isFinite ? DecimalText.parse(fifteenDigits(double)) : nil
    }

    /// The text of 15 significant digits SQLite prints for a REAL (`%.15g`).
    static func fifteenDigits(_ double: Double) -> String {
        String(format: "%.15g", double)
    }

    /// The number of significant digits in a decimal's text (no exponent, as ``DecimalText`` writes it).
    private static func significantDigits(_ text: String) -> Int {
        var digits = text.utf8.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        while digits.first == UInt8(ascii: "0") { digits.removeFirst() }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        return digits.count
    }
}
