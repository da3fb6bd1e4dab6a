import Foundation
import Persist

/// The values of adopted `json` and `jsonb` columns: a JSON object is an `.object`, an array an
/// `.array`, a string a `.string`, `true` and `false` a `.bool`, `null` a `.null` (missing at the
/// top level), and a number an `.int` when it is written without a fraction or exponent and fits
/// 64 bits, otherwise a `.double`.
///
/// Written values must be JSON: bytes, dates, NaN and the infinities have no JSON form. Doubles
/// are written with a fraction or an exponent, so they read back as doubles (see
/// ``numberText(_:)``).
enum JSONValueCoding {
    /// The value of a JSON text; `nil` when it is not valid JSON.
    ///
    /// - Throws: ``DecodingFailure`` (`unsupported`) for JSON that nests arrays and objects more
    ///   than ``BinaryValueCoding/maximumDepth`` levels deep, which PostgreSQL keeps and no
    ///   Persist value can hold.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws -> Value? {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        let value = parser.value(depth: 0)
        if parser.isTooDeep {
            throw DecodingFailure("holds JSON that nests arrays and objects more than \(BinaryValueCoding.maximumDepth) "
                + "levels deep, which no Persist value can; flatten it with SQL", code: .unsupported)
        }
        guard let value else { return nil }
        parser.skipWhitespace()
        return parser.isAtEnd ? value : nil
    }

    /// Why ``decode(_:)`` does not give exactly what a JSON text holds, or `nil` when it does: a
    /// number no 64-bit integer or double equals, an object with a key twice (the last one is
    /// kept), or `null` at the top level (read as no value). Reads give the nearest value, as
    /// documented; a migration refuses to copy it.
    static func inexactness(_ bytes: UnsafeRawBufferPointer) -> String? {
        var parser = Parser(bytes: bytes, checksExactness: true)
        parser.skipWhitespace()
        guard let value = parser.value(depth: 0) else { return nil }
        if value.isNull { return "the JSON null, which Persist reads as no value" }
        return parser.inexactness
    }

    /// The JSON text of a value; `nil` when it has no JSON form.
    static func encode(_ value: Value) -> String? {
        var text = ""
        return append(value, to: &text) ? text : nil
    }

    private static func append(_ value: Value, to text: inout String) -> Bool {
        switch value {
        case .null: text += "null"
        case .bool(let bool): text += bool ? "true" : "false"
        case .int(let int): text += String(int)
        case .double(let double):
            guard double.isFinite else { return false }
            text += numberText(double)
        case .string(let string): appendString(string, to: &text)
        case .bytes, .date: return false
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                guard append(element, to: &text) else { return false }
            }
            text += "]"
        case .object(let entries):
            text += "{"
            for (index, key) in BinaryValueCoding.sortedKeys(entries).enumerated() {
                if index > 0 { text += "," }
                appendString(key, to: &text)
                text += ":"
                guard let entry = entries[key], append(entry, to: &text) else { return false }
            }
            text += "}"
        }
        return true
    }

    /// The JSON text of a finite double: Swift's shortest rendering, which always shows a
    /// fraction or an exponent, except that a whole number it writes with an exponent and a
    /// 64-bit integer equals (`1e+16`) is written out with `.0` (`10000000000000000.0`).
    /// `jsonb` keeps numbers as `numeric`, which drops the exponent: `1e+16` would come back as
    /// `10000000000000000`, an integer.
    static func numberText(_ double: Double) -> String {
        let shortest = "\(double)"
        guard shortest.contains("e"), let integer = Int64(exactly: double) else { return shortest }
        return "\(integer).0"
    }

    private static func appendString(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// A recursive-descent JSON parser over bytes, with a nesting limit.
    private struct Parser {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        /// Whether to note the first value read inexactly in ``inexactness``.
        var checksExactness = false
        /// The first value read inexactly, when ``checksExactness``.
        var inexactness: String?
        /// Whether parsing stopped at an array or object nested deeper than Persist values go.
        private(set) var isTooDeep = false

        var isAtEnd: Bool { offset == bytes.count }

        private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
        }

        private mutating func consume(_ literal: String) -> Bool {
            let utf8 = Array(literal.utf8)
            guard bytes.count - offset >= utf8.count else { return false }
            for (index, byte) in utf8.enumerated() where bytes[offset + index] != byte { return false }
            offset += utf8.count
            return true
        }

        /// The value at `depth` arrays and objects down; one more of them at the maximum depth
        /// would make a value deeper than ``BinaryValueCoding/maximumDepth``.
        mutating func value(depth: Int) -> Value? {
            guard let byte = current else { return nil }
            if depth >= BinaryValueCoding.maximumDepth, byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                isTooDeep = true
                return nil
            }
            switch byte {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return consume("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return consume("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return consume("null") ? .null : nil
            default: return number()
            }
        }

        private mutating func object(depth: Int) -> Value? {
            offset += 1
            var entries: [String: Value] = [:]
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                offset += 1
                return .object(entries)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\""), let key = string() else { return nil }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { return nil }
                offset += 1
                skipWhitespace()
                guard let entry = value(depth: depth + 1) else { return nil }
                if checksExactness, inexactness == nil, entries[key] != nil {
                    inexactness = "a JSON object with the key \(String(reflecting: key)) twice, of which only the last is kept"
                }
                entries[key] = entry
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    offset += 1
                } else if current == UInt8(ascii: "}") {
                    offset += 1
                    return .object(entries)
                } else {
                    return nil
                }
            }
        }

        private mutating func array(depth: Int) -> Value? {
            offset += 1
            var elements: [Value] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                offset += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    offset += 1
                } else if current == UInt8(ascii: "]") {
                    offset += 1
                    return .array(elements)
                } else {
                    return nil
                }
            }
        }

        private mutating func string() -> String? {
            offset += 1
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flushRun() {
                if !run.isEmpty {
                    scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                    run.removeAll()
                }
            }
            while let byte = current {
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flushRun()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flushRun()
                    guard let escaped = current else { return nil }
                    offset += 1
                    switch escaped {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{c}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        guard let unit = hex4() else { return nil }
                        scalars.append(scalar(escaping: unit))
                    default: return nil
                    }
                default:
                    run.append(byte)
                }
            }
            return nil
        }

        /// The scalar of a `\u` escape of the UTF-16 code unit `unit`, with the escape of the low
        /// surrogate that follows a high one. A lone surrogate, which PostgreSQL's `json` keeps
        /// (a string a program cut in the middle of an emoji) but no Swift string can hold, is
        /// read as U+FFFD, the nearest value, and noted as inexact.
        private mutating func scalar(escaping unit: UInt32) -> Unicode.Scalar {
            if let scalar = Unicode.Scalar(unit) { return scalar }
            if unit < 0xDC00 {
                let start = offset
                if consume("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low),
                   let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) {
                    return scalar
                }
                offset = start
            }
            if checksExactness, inexactness == nil {
                inexactness = "the JSON string escape \\u\(String(unit, radix: 16)), half of a UTF-16 surrogate pair, "
                    + "which Persist reads as U+FFFD"
            }
            return "\u{FFFD}"
        }

        private mutating func hex4() -> UInt32? {
            guard bytes.count - offset >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current, let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
                value = value << 4 | UInt32(digit)
                offset += 1
            }
            return value
        }

        private mutating func number() -> Value? {
            let start = offset
            var isInteger = true
            while let byte = current {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"):
                    offset += 1
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                    isInteger = false
                    offset += 1
                default:
                    return finish(start, isInteger)
                }
            }
            return finish(start, isInteger)
        }

        private mutating func finish(_ start: Int, _ isInteger: Bool) -> Value? {
            guard offset > start else { return nil }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            if isInteger, let integer = Int64(text) { return .int(integer) }
            // The nearest double: a number beyond the doubles' range (legacy JSON may hold 1e400)
            // is an infinity, as a `numeric` column's is.
            guard let double = Double(text), !double.isNaN else { return nil }
            if checksExactness, inexactness == nil, !NumericCoding.isExact(double, text) {
                inexactness = "the JSON number \(text), which no 64-bit integer or double equals (the nearest is \(double))"
            }
            return .double(double)
        }
    }
}
