/// JSON text to `Value` and back: for `persist-migrate --raw-value json` (``strict``) and for the
/// `json` and `jsonb` columns of SQL stores (``lenient``).
///
/// Reading follows RFC 8259's grammar. `null`, `true`/`false`, strings, arrays and objects map to
/// `.null`, `.bool`, `.string`, `.array` and `.object`. A number without a fraction or an exponent
/// that fits 64 bits is an `.int`; every other number is a `.double` (so `1.0` stays a double, and
/// an integer beyond Int64 becomes the nearest double). Arrays and objects nest at most
/// ``BinaryValueCoding/maximumDepth`` levels, as Persist values do. Text after the value is an
/// error.
///
/// Writing has no whitespace, object keys in ascending order of their UTF-8 bytes, strings
/// escaped only where JSON requires it (`"`, `\`, and control characters), integers in decimal,
/// and doubles in the shortest form that reads back as the same double (always with a `.` or an
/// exponent). NaN, infinities, bytes and dates have no JSON form.
///
/// ```swift
/// let value = try JSONValueCoding.strict.decode(Array(#"{ "b": [1, 2.5], "a": "x" }"#.utf8))
/// let text = try JSONValueCoding.strict.encode(value)   // {"a":"x","b":[1,2.5]}
/// ```
package struct JSONValueCoding: Sendable {
    /// Why a text was not read or a value not written.
    package struct Failure: Error, CustomStringConvertible {
        package enum Reason: Sendable {
            /// The text is not JSON, or holds what these rules refuse.
            case invalid
            /// Arrays and objects nest deeper than ``BinaryValueCoding/maximumDepth`` levels.
            case tooDeep
            /// The value has no JSON form (bytes, a date, NaN or an infinity).
            case noJSONForm
        }

        package let reason: Reason
        package let description: String
    }

    /// Reading: `false` refuses a text that no Persist value holds exactly — an object with a key
    /// twice, a number beyond the doubles' range, a lone UTF-16 surrogate escape, bytes that are
    /// not UTF-8 — and `true` reads it as the nearest value: the last of the keys, an infinity,
    /// U+FFFD.
    package var readsNearestValue: Bool
    /// Writing: `true` writes backspace and form feed as `\b` and `\f`, `false` as `\u0008` and
    /// `\u000c`. Newline, return and tab are always `\n`, `\r` and `\t`.
    package var writesShortEscapes: Bool
    /// Writing: `true` writes a whole double that Swift writes with an exponent and a 64-bit
    /// integer equals in full, with `.0` (`1e+16` as `10000000000000000.0`), for stores that keep
    /// JSON numbers as decimals and drop the exponent, which would make it an integer.
    package var writesWholeDoublesInFull: Bool

    /// Exact both ways: a value written reads back equal, and canonical JSON text reads and writes
    /// back byte for byte.
    package static let strict = JSONValueCoding(readsNearestValue: false, writesShortEscapes: true,
                                                writesWholeDoublesInFull: false)
    /// For JSON a database keeps and has checked: read as the nearest value (see
    /// ``inexactness(_:numberIsExact:)`` for what is not exact), written so that doubles stay doubles.
    package static let lenient = JSONValueCoding(readsNearestValue: true, writesShortEscapes: false,
                                                 writesWholeDoublesInFull: true)

    // MARK: Reading

    /// The value of a JSON text.
    ///
    /// - Throws: ``Failure`` naming the problem and the byte where it is.
    package func decode(_ bytes: [UInt8]) throws -> Value {
        try bytes.withUnsafeBytes { try decode($0) }
    }

    /// The value of a JSON text.
    ///
    /// - Throws: ``Failure`` naming the problem and the byte where it is.
    package func decode(_ bytes: UnsafeRawBufferPointer) throws -> Value {
        var parser = JSONValueParser(bytes: bytes, readsNearestValue: readsNearestValue)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.isAtEnd else { throw parser.failure("text after the JSON value") }
        return value
    }

    /// Why `decode` does not give exactly what a JSON text holds, or
    /// `nil` when it does (or the text is not JSON): a number for which `numberIsExact` is false
    /// (given the double read and the number's text), an object with a key twice (the last one is
    /// kept), a lone surrogate escape (read as U+FFFD), or `null` at the top level (read as no value).
    package func inexactness(_ bytes: UnsafeRawBufferPointer, numberIsExact: @escaping (Double, String) -> Bool)
        -> String?
    {
        var parser = JSONValueParser(bytes: bytes, readsNearestValue: readsNearestValue, numberIsExact: numberIsExact)
        parser.skipSpace()
        guard let value = try? parser.value(depth: 0) else { return nil }
        if value.isNull { return "the JSON null, which Persist reads as no value" }
        return parser.inexactness
    }

    // MARK: Writing

    /// The JSON text of a value.
    ///
    /// - Throws: ``Failure`` for a value with no JSON form, or nested deeper than
    ///   ``BinaryValueCoding/maximumDepth`` levels.
    package func encode(_ value: Value) throws -> [UInt8] {
        var output: [UInt8] = []
        try write(value, into: &output, depth: 0)
        return output
    }

    private func write(_ value: Value, into output: inout [UInt8], depth: Int) throws {
        switch value {
        case .null:
            output += "null".utf8
        case .bool(let flag):
            output += (flag ? "true" : "false").utf8
        case .int(let integer):
            output += String(integer).utf8
        case .double(let double):
            guard double.isFinite else { throw Failure(reason: .noJSONForm, description: "\(double) has no JSON form") }
            output += numberText(double).utf8
        case .decimal(let decimal):
            guard !decimal.isNaN else { throw Failure(reason: .noJSONForm, description: "a decimal NaN has no JSON form") }
            output += DecimalText.text(decimal).utf8
        case .string(let text):
            writeString(text, into: &output)
        case .bytes:
            throw Failure(reason: .noJSONForm, description: "bytes have no JSON form")
        case .date:
            throw Failure(reason: .noJSONForm, description: "a date has no JSON form")
        case .array(let elements):
            try checkDepth(depth)
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                try write(element, into: &output, depth: depth + 1)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let entries):
            try checkDepth(depth)
            output.append(UInt8(ascii: "{"))
            for (position, key) in BinaryValueCoding.sortedKeys(entries).enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                writeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                try write(entries[key] ?? .null, into: &output, depth: depth + 1)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private func checkDepth(_ depth: Int) throws {
        guard depth < BinaryValueCoding.maximumDepth else {
            throw Failure(reason: .tooDeep, description: "nested too deeply for JSON")
        }
    }

    /// Swift's shortest rendering, which always shows a fraction or an exponent, or with
    /// ``writesWholeDoublesInFull``, a whole number it writes with an exponent in full.
    private func numberText(_ double: Double) -> String {
        let shortest = double.description
        guard writesWholeDoublesInFull, shortest.contains("e"), let integer = Int64(exactly: double) else {
            return shortest
        }
        return "\(integer).0"
    }

    private func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [0x5C, 0x22]
            case UInt8(ascii: "\\"): output += [0x5C, 0x5C]
            case 0x0A: output += [0x5C, UInt8(ascii: "n")]
            case 0x0D: output += [0x5C, UInt8(ascii: "r")]
            case 0x09: output += [0x5C, UInt8(ascii: "t")]
            case 0x08 where writesShortEscapes: output += [0x5C, UInt8(ascii: "b")]
            case 0x0C where writesShortEscapes: output += [0x5C, UInt8(ascii: "f")]
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                output += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
