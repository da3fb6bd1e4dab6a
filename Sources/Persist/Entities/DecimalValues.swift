import Foundation

/// How entities store `Decimal`: as a number where one holds it exactly, so that requests compare
/// and sort it as a number, and as its decimal text where none does (more digits than a `Double`
/// keeps), so that nothing is lost. Foundation's own `Codable` conformance would store an object of
/// its internal fields (exponent, mantissa, …), which no request can compare; values stored that way
/// still decode.
enum DecimalValues {
    /// The value that stores `decimal`: `.double` when the double's shortest spelling gives the
    /// decimal back, its text otherwise; `NaN` is the double NaN.
    static func value(of decimal: Decimal) -> Value {
        if decimal.isNaN { return .double(.nan) }
        let text = decimal.description
        if let double = Double(text), double.isFinite, Decimal(string: "\(double)") == decimal {
            return .double(double)
        }
        return .string(text)
    }

    /// The decimal a stored value holds; `nil` for an object, which Foundation's own decoding
    /// reads (a value stored as its fields).
    ///
    /// - Throws: `DecodingError.typeMismatch` for a value that holds no decimal number (text that
    ///   is not one, an infinity, a double beyond `Decimal`'s range, or another kind).
    static func decimal(from value: Value, codingPath: [any CodingKey]) throws -> Decimal? {
        let parsed: Decimal?
        switch value {
        case .object: return nil
        case .decimal(let decimal): parsed = decimal
        case .double(let double) where double.isNaN: parsed = .nan
        case .double(let double) where double.isFinite: parsed = Decimal(string: "\(double)")
        case .int(let int): parsed = Decimal(int)
        case .string(let text) where isDecimalNumber(text): parsed = Decimal(string: text)
        default: parsed = nil
        }
        guard let parsed else {
            throw DecodingError.typeMismatch(Decimal.self, DecodingError.Context(
                codingPath: codingPath, debugDescription: "expected a decimal number, found \(value.kind) value \(value)"))
        }
        return parsed
    }

    /// Whether `text` is a whole decimal number: a sign, digits with at most one point, and an
    /// exponent (`Decimal(string:)` alone would read "12abc" as 12).
    private static func isDecimalNumber(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
