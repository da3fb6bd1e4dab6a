import Foundation
import Persist
import Testing

@Suite("JSON value coding, strict and lenient")
struct JSONValueCodingTests {
    static func read(_ text: String, _ coding: JSONValueCoding) throws -> Value {
        try coding.decode(Array(text.utf8))
    }

    static func written(_ value: Value, _ coding: JSONValueCoding) throws -> String {
        String(decoding: try coding.encode(value), as: UTF8.self)
    }

    static func failure(_ body: () throws -> Any) -> JSONValueCoding.Failure? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? JSONValueCoding.Failure
        }
    }

    @Test("both read the same JSON the same way, and canonical text writes back byte for byte")
    func common() throws {
        let text = #"{ "b": [1, 2.5, -0.0, 1e2, 123456789012345678901], "a": "\u00e9\t\"x\"", "c": null, "d": true }"#
        let expected: Value = [
            "a": "é\t\"x\"", "b": [.int(1), .double(2.5), .double(-0.0), .double(100), .double(1.2345678901234568e20)],
            "c": .null, "d": .bool(true),
        ]
        for coding in [JSONValueCoding.strict, .lenient] {
            #expect(try Self.read(text, coding) == expected)
        }
        let canonical = #"{"a":"é\t\"x\"","b":[1,2.5,-0.0,100.0,1.2345678901234568e+20],"c":null,"d":true}"#
        #expect(try Self.written(Self.read(canonical, .strict), .strict) == canonical)
    }

    @Test("strict refuses what no value holds exactly; lenient reads the nearest value", arguments: [
        (#"{"k":1,"k":2}"#, Value.object(["k": 2])),
        (#""cut \ud83d""#, Value.string("cut \u{FFFD}")),
        (#"["\ude00","\ud83d\u0041","\ud83d\ude00"]"#, Value.array(["\u{FFFD}", "\u{FFFD}A", "\u{1F600}"])),
        ("1e400", Value.double(.infinity)),
    ])
    func inexact(_ text: String, _ nearest: Value) throws {
        #expect(Self.failure { try Self.read(text, .strict) }?.reason == .invalid)
        #expect(try Self.read(text, .lenient) == nearest)
    }

    @Test("strict refuses bytes that are not UTF-8; lenient reads U+FFFD")
    func invalidUTF8() throws {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x22]
        #expect(Self.failure { try JSONValueCoding.strict.decode(bytes) }?.description.contains("not valid UTF-8") == true)
        #expect(try JSONValueCoding.lenient.decode(bytes) == "a\u{FFFD}")
    }

    @Test("neither reads text that is not JSON", arguments: [
        "", "[1,]", "{\"a\" 1}", "01", "+1", ".5", "1.", "1e", "\"\\u+041\"", "\"\\x\"", "\"tab\there\"", "[1] 2", "nul",
    ])
    func notJSON(_ text: String) {
        for coding in [JSONValueCoding.strict, .lenient] {
            #expect(Self.failure { try Self.read(text, coding) }?.reason == .invalid, "\(text)")
        }
    }

    @Test("arrays and objects nest as deep as Persist values go, and no deeper, both ways")
    func depth() throws {
        let deepest = BinaryValueCoding.maximumDepth
        let fits = String(repeating: "[", count: deepest) + "1" + String(repeating: "]", count: deepest)
        let deeper = "[" + fits + "]"
        for coding in [JSONValueCoding.strict, .lenient] {
            let value = try Self.read(fits, coding)
            #expect(value.nestingDepth == deepest)
            #expect(try Self.written(value, coding) == fits)
            #expect(Self.failure { try Self.read(deeper, coding) }?.reason == .tooDeep)
            #expect(Self.failure { try coding.encode(.array([value])) }?.reason == .tooDeep)
        }
    }

    @Test("strict writes \\b, \\f and shortest doubles; lenient writes \\u0008, \\u000c and whole doubles in full")
    func writing() throws {
        let value: Value = ["s": "\u{8}\u{C}\u{1}", "n": .double(1e16), "m": .double(1.5e300)]
        #expect(try Self.written(value, .strict) == #"{"m":1.5e+300,"n":1e+16,"s":"\b\f\u0001"}"#)
        #expect(try Self.written(value, .lenient) == #"{"m":1.5e+300,"n":10000000000000000.0,"s":"\u0008\u000c\u0001"}"#)
        for noForm: Value in [.bytes([1]), .date(Date(timeIntervalSince1970: 0)), .double(.nan), .double(-.infinity)] {
            #expect(Self.failure { try JSONValueCoding.strict.encode(noForm) }?.reason == .noJSONForm)
        }
    }

    @Test("inexactness names the first value read inexactly, and nothing for exact JSON")
    func inexactness() {
        func inexactness(_ text: String) -> String? {
            Array(text.utf8).withUnsafeBytes { buffer in
                JSONValueCoding.lenient.inexactness(buffer, numberIsExact: { double, text in
                    Double(text) == double && !text.contains("0000000000000000000001")
                })
            }
        }
        #expect(inexactness(#"{"a":[1,2.5,"x"]}"#) == nil)
        #expect(inexactness("null")?.contains("no value") == true)
        #expect(inexactness(#"{"k":1,"k":2}"#)?.contains("the key \"k\" twice") == true)
        #expect(inexactness(#""\ud83d""#)?.contains("\\ud83d") == true)
        #expect(inexactness("0.10000000000000000000001")?.contains("the JSON number 0.10000000000000000000001") == true)
        #expect(inexactness("not json") == nil)
    }
}
