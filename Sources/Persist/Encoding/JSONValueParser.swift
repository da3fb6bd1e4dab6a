/// The recursive-descent parser of ``JSONValueCoding``, over bytes: RFC 8259's grammar, with
/// arrays and objects nested at most ``BinaryValueCoding/maximumDepth`` levels.
struct JSONValueParser {
    let bytes: UnsafeRawBufferPointer
    /// See ``JSONValueCoding/readsNearestValue``.
    let readsNearestValue: Bool
    /// When given, the first value read inexactly is noted in ``inexactness``; this says whether a
    /// number's text is exactly the double read from it.
    let numberIsExact: ((Double, String) -> Bool)?
    private(set) var offset = 0
    /// The first value read inexactly, when ``numberIsExact`` is given.
    private(set) var inexactness: String?

    init(bytes: UnsafeRawBufferPointer, readsNearestValue: Bool, numberIsExact: ((Double, String) -> Bool)? = nil) {
        self.bytes = bytes
        self.readsNearestValue = readsNearestValue
        self.numberIsExact = numberIsExact
    }

    var isAtEnd: Bool { offset == bytes.count }

    func failure(_ problem: String, _ reason: JSONValueCoding.Failure.Reason = .invalid) -> JSONValueCoding.Failure {
        JSONValueCoding.Failure(reason: reason, description: "not valid JSON: \(problem) at byte \(offset)")
    }

    /// Notes the first value read inexactly, when asked to.
    private mutating func note(_ inexact: @autoclosure () -> String) {
        if numberIsExact != nil, inexactness == nil { inexactness = inexact() }
    }

    mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    /// The value at `depth` arrays and objects down.
    mutating func value(depth: Int) throws -> Value {
        guard offset < bytes.count else { throw failure("the text ends early") }
        switch bytes[offset] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < BinaryValueCoding.maximumDepth else { throw failure("nested too deeply", .tooDeep) }
            return bytes[offset] == UInt8(ascii: "{") ? try object(depth: depth) : try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func literal(_ word: String) throws {
        let expected = Array(word.utf8)
        guard bytes.count - offset >= expected.count, bytes[offset..<offset + expected.count].elementsEqual(expected) else {
            throw failure("an unexpected character")
        }
        offset += expected.count
    }

    private mutating func object(depth: Int) throws -> Value {
        offset += 1
        var entries: [String: Value] = [:]
        skipSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return .object(entries)
        }
        while true {
            skipSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw failure("a key was expected") }
            let key = try string()
            skipSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw failure("':' was expected") }
            offset += 1
            skipSpace()
            let value = try value(depth: depth + 1)
            if entries.updateValue(value, forKey: key) != nil {
                guard readsNearestValue else { throw failure("the key \(String(reflecting: key)) appears twice") }
                note("a JSON object with the key \(String(reflecting: key)) twice, of which only the last is kept")
            }
            skipSpace()
            guard offset < bytes.count else { throw failure("the text ends early") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
            } else if bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return .object(entries)
            } else {
                throw failure("',' or '}' was expected")
            }
        }
    }

    private mutating func array(depth: Int) throws -> Value {
        offset += 1
        var elements: [Value] = []
        skipSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try value(depth: depth + 1))
            skipSpace()
            guard offset < bytes.count else { throw failure("the text ends early") }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
            } else if bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return .array(elements)
            } else {
                throw failure("',' or ']' was expected")
            }
        }
    }

    private mutating func string() throws -> String {
        offset += 1
        var text: [UInt8] = []
        while true {
            let run = offset
            while offset < bytes.count, bytes[offset] >= 0x20, bytes[offset] != UInt8(ascii: "\""),
                  bytes[offset] != UInt8(ascii: "\\") { offset += 1 }
            text += bytes[run..<offset]
            guard offset < bytes.count else { throw failure("a string is not closed") }
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                if let valid = String(validating: text, as: UTF8.self) { return valid }
                guard readsNearestValue else { throw failure("a string is not valid UTF-8") }
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &text)
            default:
                throw failure("a control character inside a string")
            }
        }
    }

    private mutating func escape(into output: inout [UInt8]) throws {
        guard offset < bytes.count else { throw failure("a string is not closed") }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"): output += String(Character(try scalar(escaping: try hex4()))).utf8
        default: throw failure("an unknown escape")
        }
    }

    /// The scalar of a `\u` escape of the UTF-16 code unit `unit`, with the escape of the low
    /// surrogate that follows a high one. A lone surrogate (which a database's `json` type may keep, as in
    /// a string a program cut in the middle of an emoji) is refused, or read as U+FFFD, the nearest
    /// value, and noted as inexact.
    private mutating func scalar(escaping unit: UInt32) throws -> Unicode.Scalar {
        if let scalar = Unicode.Scalar(unit) { return scalar }
        if unit < 0xDC00 {
            let start = offset
            if bytes.count - offset >= 2, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") {
                offset += 2
                let low = try hex4()
                if (0xDC00..<0xE000).contains(low), let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) {
                    return scalar
                }
            }
            guard readsNearestValue else { throw failure("a lone surrogate") }
            offset = start
        }
        guard readsNearestValue else { throw failure("a lone surrogate") }
        note("the JSON string escape \\u\(String(unit, radix: 16)), half of a UTF-16 surrogate pair, which Persist reads as U+FFFD")
        return "\u{FFFD}"
    }

    /// The four hexadecimal digits of a `\u` escape.
    private mutating func hex4() throws -> UInt32 {
        guard bytes.count - offset >= 4 else { throw failure("a bad \\u escape") }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { throw failure("a bad \\u escape") }
            value = value << 4 | UInt32(digit)
        }
        offset += 4
        return value
    }

    private mutating func number() throws -> Value {
        let start = offset
        var integral = true
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let digits = skipDigits()
        guard digits > 0 else { throw failure("an unexpected character") }
        if digits > 1, bytes[offset - digits] == UInt8(ascii: "0") { throw failure("a number with a leading zero") }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            integral = false
            offset += 1
            guard skipDigits() > 0 else { throw failure("a number without digits after '.'") }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            integral = false
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard skipDigits() > 0 else { throw failure("a number without exponent digits") }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        if integral, let integer = Int64(text) { return .int(integer) }
        // Beyond the doubles' range (legacy JSON may hold 1e400), the nearest double is an infinity.
        guard let double = Double(text), double.isFinite || readsNearestValue else { throw failure("a number out of range") }
        if let numberIsExact, !numberIsExact(double, text) {
            note("the JSON number \(text), which no 64-bit integer or double equals (the nearest is \(double))")
        }
        return .double(double)
    }

    /// Skips decimal digits; gives how many.
    private mutating func skipDigits() -> Int {
        let start = offset
        while offset < bytes.count, (0x30...0x39).contains(bytes[offset]) { offset += 1 }
        return offset - start
    }
}
