import Foundation

/// How entities store `Decimal`: as an exact ``Value/decimal(_:)``, which requests compare and
/// sort as a number. Earlier versions stored a double where one held the decimal exactly and its
/// text otherwise, and Foundation's own `Codable` conformance stores an object of its internal
/// fields (exponent, mantissa, …); values stored in any of those forms still decode.
enum DecimalValues {
    /// The value that stores `decimal`: always `.decimal`, NaN included.
    @inline(__always)
    static func value(of decimal: Decimal) -> Value {
        .decimal(decimal)
    }

    /// The decimal a stored value holds (a decimal, or a double, an integer or decimal text as
    /// earlier versions stored it); `nil` for an object, which Foundation's own decoding
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
