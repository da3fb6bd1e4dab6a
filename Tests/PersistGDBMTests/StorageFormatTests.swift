import Foundation
import Persist
import PersistConformance
import PersistGDBM
import Testing

@Suite("The native storage format, as documented")
struct StorageFormatTests {
    static let values: [Value] = [
        false, true, 0, -1, .int(.min), .int(.max), 0.0, -0.0, .double(.nan), .double(.infinity), 0.1, "", "a\u{0}b",
        "𝄞é", .bytes([]), .bytes([0, 255]), .date(Date(timeIntervalSinceReferenceDate: -1.25)), [], [1, [2, ["x": .null]]],
        [:], ["b": 1, "a": 2, "": [.bytes([1])]],
    ]

    @Test("records round-trip every value kind, and lazy lookups agree with the full decode")
    func roundTrip() throws {
        var attributes: [String: Value] = [:]
        for (index, value) in Self.values.enumerated() { attributes["a\(index)"] = value }
        attributes["名前"] = "unicode name"
        let record = try GDBMStorageFormat.encodeRecord(attributes)
        #expect(try GDBMStorageFormat.decodeRecord(record) == attributes)
        for (name, value) in attributes {
            #expect(try GDBMStorageFormat.decodeAttribute(name, inRecord: record) == value)
        }
        #expect(try GDBMStorageFormat.decodeAttribute("missing", inRecord: record) == nil)
        #expect(try GDBMStorageFormat.decodeRecord(GDBMStorageFormat.encodeRecord([:])) == [:])
    }

    @Test("the documented examples encode to exactly the documented bytes")
    func documentedBytes() throws {
        #expect(try GDBMStorageFormat.encodeKey(itemType: "Note", id: "n1") == [0x04, 0x4E, 0x6F, 0x74, 0x65, 0x02, 0x6E, 0x31])
        #expect(try GDBMStorageFormat.encodeKey(itemType: "Note", id: 5)
            == [0x04, 0x4E, 0x6F, 0x74, 0x65, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x05])
        #expect(try GDBMStorageFormat.encodeKey(itemType: "Note", id: .bytes([0xFF])) == [0x04, 0x4E, 0x6F, 0x74, 0x65, 0x03, 0xFF])
        #expect(try GDBMStorageFormat.encodeRecord(["text": "hi", "n": 3, "gone": .null])
            == [0x01, 0x02, 0x01, 0x6E, 0x02, 0x03, 0x06, 0x04, 0x74, 0x65, 0x78, 0x74, 0x04, 0x05, 0x02, 0x68, 0x69])
        #expect(GDBMStorageFormat.metadataKey == [0x00, 0x66, 0x6F, 0x72, 0x6D, 0x61, 0x74])
        #expect(GDBMStorageFormat.metadataValue == Array("persist-gdbm".utf8) + [0x01])
        #expect(try GDBMStorageFormat.decodeKey(GDBMStorageFormat.metadataKey) == nil)
        #expect(try GDBMStorageFormat.decodeKey([0x04, 0x4E, 0x6F, 0x74, 0x65, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
            == ItemReference(itemType: "Note", id: -1))
    }

    /// Malformed records, including inputs the fuzzer once found, each must throw, never trap.
    static let malformedRecords: [[UInt8]] = [
        [], [0x00], [0x01], [0x01, 0x01], [0x01, 0x01, 0x00, 0x01, 0x00], [0x01, 0x01, 0x01, 0x61, 0x00],
        [0x01, 0x01, 0x01, 0x61, 0x01], [0x01, 0x01, 0x01, 0x61, 0x01, 0x00], [0x01, 0x01, 0x01, 0x61, 0x02, 0x03, 0x02, 0xFF],
        [0x01, 0x01, 0x01, 0x61, 0x02, 0x05, 0x05], [0x01, 0x02, 0x01, 0x62, 0x01, 0x01, 0x01, 0x61, 0x01, 0x01],
        [0x01, 0x02, 0x01, 0x61, 0x01, 0x01, 0x01, 0x61, 0x01, 0x01], [0x01, 0x01, 0x01, 0xFF, 0x01, 0x01],
        [0x01, 0x01, 0x01, 0x00, 0x01, 0x01], [0x01, 0x01, 0x01, 0x61, 0x01, 0x01, 0x00],
        [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F], [0x01, 0x01, 0x01, 0x61, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],
        [0x01, 0x01, 0x80, 0x00, 0x61, 0x01, 0x01], [0x01, 0x01, 0x01, 0x61, 0x02, 0x08, 0x01],
    ]

    @Test("malformed records throw corrupt, never trap", arguments: malformedRecords)
    func malformedRecordThrows(_ bytes: [UInt8]) {
        let full = expectError(.corrupt) { try GDBMStorageFormat.decodeRecord(bytes) }
        #expect(full != nil)
        do {
            _ = try GDBMStorageFormat.decodeAttribute("a", inRecord: bytes)
            _ = try GDBMStorageFormat.decodeAttribute("b", inRecord: bytes)
        } catch let error as DataStoreError {
            #expect(error.code == .corrupt)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("fuzzer finding: a NaN with another payload decodes, and re-encodes as the canonical NaN")
    func nonCanonicalNaN() throws {
        let found: [UInt8] = [
            0x01, 0x01, 0x06, 0x6E, 0x65, 0x73, 0x74, 0x65, 0x64, 0x25, 0x09, 0x02, 0x01, 0x78, 0x08, 0x02, 0x04, 0x80, 0, 0, 0,
            0, 0, 0, 0, 0x04, 0x7F, 0xF8, 0, 0, 0x34, 0, 0, 0, 0x01, 0x79, 0x03, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xFF, 0x01,
        ]
        let attributes = try GDBMStorageFormat.decodeRecord(found)
        let expected: Value = ["x": [.double(-0.0), .double(.nan)], "y": .int(.min)]
        #expect(attributes == ["nested": expected])
        let reencoded = try GDBMStorageFormat.encodeRecord(attributes)
        #expect(reencoded != found)
        #expect(try GDBMStorageFormat.decodeRecord(reencoded) == attributes)
        #expect(try GDBMStorageFormat.decodeAttribute("nested", inRecord: found) == expected)
    }

    @Test("a record from a newer format version throws unsupported")
    func newerRecord() {
        expectError(.unsupported) { try GDBMStorageFormat.decodeRecord([0x02, 0x00]) }
        expectError(.unsupported) { try GDBMStorageFormat.decodeAttribute("a", inRecord: [0xFF]) }
    }

    @Test("malformed keys throw corrupt", arguments: [
        [UInt8](), [0x01], [0x02, 0x61], [0x01, 0x61], [0x01, 0x61, 0x09], [0x01, 0x61, 0x01, 0x00],
        [0x01, 0x61, 0x02, 0xFF], [0x01, 0xFF, 0x02], [0x01, 0x00, 0x02], [0x80, 0x00, 0x61, 0x02],
    ])
    func malformedKeys(_ bytes: [UInt8]) {
        expectError(.corrupt) { try GDBMStorageFormat.decodeKey(bytes) }
    }

    @Test("names the format cannot hold are refused when encoding")
    func invalidNames() {
        expectError(.invalidArgument) { try GDBMStorageFormat.encodeKey(itemType: "", id: 1) }
        expectError(.invalidArgument) { try GDBMStorageFormat.encodeRecord(["": 1]) }
        expectError(.invalidArgument) { try GDBMStorageFormat.encodeRecord(["a\u{0}": 1]) }
    }

    @Test("journals round-trip, and damaged ones throw corrupt")
    func journals() throws {
        let entries: [GDBMJournalEntry] = [
            .store(key: [1, 2], value: []), .delete(key: []), .store(key: [], value: [0, 0, 0]),
        ]
        let bytes = GDBMStorageFormat.encodeJournal(entries)
        #expect(try GDBMStorageFormat.decodeJournal(bytes) == entries)
        #expect(try GDBMStorageFormat.decodeJournal(GDBMStorageFormat.encodeJournal([])) == [])
        for cut in 0..<bytes.count { expectError(.corrupt) { try GDBMStorageFormat.decodeJournal(Array(bytes.prefix(cut))) } }
        for index in bytes.indices {
            var flipped = bytes
            flipped[index] ^= 0x01
            expectError(.corrupt) { try GDBMStorageFormat.decodeJournal(flipped) }
        }
    }
}
