import Foundation
import Testing

@testable import Persist

@Suite("BinaryValueCoding")
struct BinaryValueCodingTests {
    static let samples: [Value] = [
        .null, true, false, 0, -1, 1, 63, -64, 64, .int(.min), .int(.max), 0.0, -0.0, .double(.infinity),
        .double(-.infinity), .double(.nan), 1.5, "", "a\u{0}b", "𝄞é", .bytes([]), .bytes([0, 255]),
        .date(Date(timeIntervalSinceReferenceDate: -1.25)), [], [1, [2, ["x": .null]]], [:],
        ["b": 1, "a": 2, "": [.bytes([1])]],
    ]

    @Test("values round-trip", arguments: samples)
    func roundTrip(_ value: Value) throws {
        #expect(try BinaryValueCoding.decode(BinaryValueCoding.encode(value)) == value)
    }

    @Test("the encoding is canonical: one NaN pattern, keys in byte order")
    func canonical() {
        #expect(BinaryValueCoding.encode(.double(.nan)) == BinaryValueCoding.encode(.double(-.signalingNaN)))
        #expect(BinaryValueCoding.encode(["b": 1, "a": 2]) == [0x09, 2, 1, 0x61, 0x03, 4, 1, 0x62, 0x03, 2])
        #expect(BinaryValueCoding.encode(.int(-1)) == [0x03, 0x01])
        #expect(BinaryValueCoding.encode(.int(300)) == [0x03, 0xD8, 0x04])
    }

    @Test("malformed bytes throw corrupt, never trap", arguments: [
        [UInt8](), [0x0A], [0x03], [0x03, 0x80], [0x03, 0x80, 0x00], [0x04, 0, 0, 0], [0x05, 5, 0x61],
        [0x05, 1, 0xFF], [0x06, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F], [0x08, 3, 0x00], [0x00, 0x00],
        [0x09, 2, 1, 0x62, 0x00, 1, 0x61, 0x00], [0x09, 2, 1, 0x61, 0x00, 1, 0x61, 0x00],
        [0x03, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02],
        [UInt8](repeating: 0x08, count: 600) + [1],
        Array([[UInt8]](repeating: [0x08, 1], count: 513).joined()) + [0x00],
    ])
    func malformed(_ bytes: [UInt8]) {
        do {
            let value = try BinaryValueCoding.decode(bytes)
            Issue.record("decoded \(value) from malformed bytes")
        } catch let error as DataStoreError {
            #expect(error.code == .corrupt)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("nesting up to the limit decodes")
    func deepNesting() throws {
        let bytes = Array([[UInt8]](repeating: [0x08, 1], count: BinaryValueCoding.maximumDepth).joined()) + [0x00]
        var expected: Value = .null
        for _ in 0..<BinaryValueCoding.maximumDepth { expected = .array([expected]) }
        #expect(try BinaryValueCoding.decode(bytes) == expected)
    }

    @Test("zigzag covers the whole Int64 range")
    func zigzag() {
        for value: Int64 in [0, -1, 1, .min, .max, -4_611_686_018_427_387_904] {
            #expect(BinaryValueCoding.unzigzag(BinaryValueCoding.zigzag(value)) == value)
        }
    }

    @Test("validUTF8 accepts exactly the valid UTF-8 byte strings")
    func validUTF8() {
        for text in ["", "plain", "café", "𝄞🎉", "a\u{0}b", "\u{FFFD}"] {
            #expect(Array(text.utf8).withUnsafeBytes(ByteReader.validUTF8) == text)
        }
        for bytes: [UInt8] in [[0xFF], [0xC3, 0x28], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x61, 0xC3]] {
            #expect(bytes.withUnsafeBytes(ByteReader.validUTF8) == nil, "accepted \(bytes)")
        }
    }
}
