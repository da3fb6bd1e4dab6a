import Foundation
import Persist

/// JSON text to `Value` and back, for `--raw-value json`.
///
/// Reading: `null`, `true`/`false`, strings, arrays and objects map to `.null`, `.bool`, `.string`,
/// `.array` and `.object`. A number without a fraction or an exponent that fits in 64 bits is an
/// `.int`; every other number is a `.double` (so `1.0` stays a double, and an integer beyond
/// Int64 becomes the nearest double). Text after the value, a duplicate key in an object, invalid
/// UTF-8, or nesting deeper than 512 levels is an error.
///
/// Writing is canonical: no whitespace, object keys in ascending order of their UTF-8 bytes,
/// strings escaped only where JSON requires it (`"`, `\`, and control characters, as `\n`, `\t`,
/// … or `\u00XX`), integers in decimal, doubles in the shortest form that reads back as the same
/// double (always with a `.` or an exponent). NaN, infinities, bytes and dates have no JSON form
/// and are refused. So a value written by this coder reads back equal, and canonical JSON text
/// reads and writes back byte for byte.
enum JSONValueCoding {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let maximumDepth = 512

    // MARK: Reading

    static func decode(_ bytes: [UInt8]) throws -> Value {
        var parser = Parser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.failure("text after the JSON value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func failure(_ problem: String) -> Failure {
            Failure(description: "not valid JSON: \(problem) at byte \(index)")
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws -> Value {
            guard depth <= JSONValueCoding.maximumDepth else { throw failure("nested too deeply") }
            guard index < bytes.count else { throw failure("the text ends early") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return try number()
            }
        }

        private mutating func literal(_ word: String) throws {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw failure("an unexpected character")
            }
            index += expected.count
        }

        private mutating func object(depth: Int) throws -> Value {
            index += 1
            var entries: [String: Value] = [:]
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(entries)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("a key was expected") }
                let key = try string()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("':' was expected") }
                index += 1
                skipSpace()
                let value = try value(depth: depth + 1)
                guard entries.updateValue(value, forKey: key) == nil else {
                    throw failure("the key \(String(reflecting: key)) appears twice")
                }
                skipSpace()
                guard index < bytes.count else { throw failure("the text ends early") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(entries)
                } else {
                    throw failure("',' or '}' was expected")
                }
            }
        }

        private mutating func array(depth: Int) throws -> Value {
            index += 1
            var elements: [Value] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipSpace()
                elements.append(try value(depth: depth + 1))
                skipSpace()
                guard index < bytes.count else { throw failure("the text ends early") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                } else {
                    throw failure("',' or ']' was expected")
                }
            }
        }

        private mutating func string() throws -> String {
            index += 1
            var scalars: [UInt8] = []
            while true {
                guard index < bytes.count else { throw failure("a string is not closed") }
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: scalars, as: UTF8.self) else {
                        throw failure("a string is not valid UTF-8")
                    }
                    return text
                case UInt8(ascii: "\\"):
                    try escape(into: &scalars)
                case 0..<0x20:
                    throw failure("a control character inside a string")
                default:
                    scalars.append(byte)
                }
            }
        }

        private mutating func escape(into output: inout [UInt8]) throws {
            guard index < bytes.count else { throw failure("a string is not closed") }
            let byte = bytes[index]
            index += 1
            let simple: [UInt8: UInt8] = [
                UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
                UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
            ]
            if let plain = simple[byte] {
                output.append(plain)
                return
            }
            guard byte == UInt8(ascii: "u") else { throw failure("an unknown escape") }
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure("a lone surrogate") }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw failure("a lone surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("an invalid code point") }
            output.append(contentsOf: Array(String(Character(unicode)).utf8))
        }

        private mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count, let text = String(validating: bytes[index..<index + 4], as: UTF8.self),
                  let value = UInt32(text, radix: 16) else { throw failure("a bad \\u escape") }
            index += 4
            return value
        }

        private mutating func number() throws -> Value {
            let start = index
            var integral = true
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            let digits = index - digitsStart
            guard digits > 0 else { throw failure("an unexpected character") }
            if digits > 1, bytes[digitsStart] == UInt8(ascii: "0") { throw failure("a number with a leading zero") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                integral = false
                index += 1
                let fraction = index
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                guard index > fraction else { throw failure("a number without digits after '.'") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                integral = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                let exponent = index
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                guard index > exponent else { throw failure("a number without exponent digits") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if integral, let integer = Int64(text) { return .int(integer) }
            guard let double = Double(text), double.isFinite else { throw failure("a number out of range") }
            return .double(double)
        }
    }

    // MARK: Writing

    static func encode(_ value: Value) throws -> [UInt8] {
        var output: [UInt8] = []
        try write(value, into: &output, depth: 0)
        return output
    }

    private static func write(_ value: Value, into output: inout [UInt8], depth: Int) throws {
        guard depth <= maximumDepth else { throw Failure(description: "nested too deeply for JSON") }
        switch value {
        case .null:
            output += Array("null".utf8)
        case .bool(let flag):
            output += Array((flag ? "true" : "false").utf8)
        case .int(let integer):
            output += Array(String(integer).utf8)
        case .double(let double):
            guard double.isFinite else { throw Failure(description: "\(double) has no JSON form") }
            output += Array(double.description.utf8)
        case .string(let text):
            writeString(text, into: &output)
        case .bytes:
            throw Failure(description: "bytes have no JSON form")
        case .date:
            throw Failure(description: "a date has no JSON form")
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                try write(element, into: &output, depth: depth + 1)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let entries):
            output.append(UInt8(ascii: "{"))
            for (position, key) in entries.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                writeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                try write(entries[key] ?? .null, into: &output, depth: depth + 1)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [0x5C, 0x22]
            case UInt8(ascii: "\\"): output += [0x5C, 0x5C]
            case 0x0A: output += [0x5C, UInt8(ascii: "n")]
            case 0x0D: output += [0x5C, UInt8(ascii: "r")]
            case 0x09: output += [0x5C, UInt8(ascii: "t")]
            case 0x08: output += [0x5C, UInt8(ascii: "b")]
            case 0x0C: output += [0x5C, UInt8(ascii: "f")]
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                output += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
