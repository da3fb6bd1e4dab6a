// The fuzz target of the GDBM storage format's decoders (records, keys, journals).
//
// Built with `-sanitize=fuzzer -DFUZZING` (see scripts/fuzz.sh), `FuzzDriver` hands control to
// libFuzzer's driver, which calls `exercise` with each input. Built normally, it is a small tool
// that runs the same checks over the files named on the command line, for replaying a corpus or
// a crashing input, and that writes a seed corpus (`--write-seeds <folder>`).

import Foundation
import Persist
import PersistFuzzSupport
import PersistGDBM

/// Runs every decoder over `bytes`; any outcome but a trap is fine, as long as what decodes
/// round-trips: a record re-encodes to bytes that decode to the same attributes (the bytes may
/// differ only where the value encoding accepts several forms, such as NaN payloads), and keys
/// and journals, which have exactly one form, re-encode to the very same bytes.
func exercise(_ bytes: [UInt8]) {
    if let attributes = try? GDBMStorageFormat.decodeRecord(bytes) {
        guard let encoded = try? GDBMStorageFormat.encodeRecord(attributes),
              (try? GDBMStorageFormat.decodeRecord(encoded)) == attributes
        else {
            FuzzFinding.report("a decoded record does not round-trip: \(bytes)")
        }
        for name in attributes.keys {
            guard (try? GDBMStorageFormat.decodeAttribute(name, inRecord: bytes)) == attributes[name] else {
                FuzzFinding.report("a lazily decoded attribute differs from the full decode: \(bytes)")
            }
        }
    }
    for name in ["a", "b", "name", "\u{0}"] {
        _ = try? GDBMStorageFormat.decodeAttribute(name, inRecord: bytes)
    }
    if let reference = try? GDBMStorageFormat.decodeKey(bytes) {
        guard let encoded = try? GDBMStorageFormat.encodeKey(itemType: reference.itemType, id: reference.id),
              encoded == bytes
        else { FuzzFinding.report("a decoded key does not re-encode to the same bytes: \(bytes)") }
    }
    if let entries = try? GDBMStorageFormat.decodeJournal(bytes) {
        guard GDBMStorageFormat.encodeJournal(entries) == bytes else {
            FuzzFinding.report("a decoded journal does not re-encode to the same bytes: \(bytes)")
        }
    }
    _ = try? GDBMStorageFormat.decodeMetadataValue(bytes)
}

@main
enum RecordsFuzz {
    static func main() throws {
        try FuzzDriver.run(seeds: seeds) { data, size in
            exercise(FuzzDriver.bytes(data, size))
            return 0
        }
    }

    /// Valid records, keys and journals for the fuzzer to start from.
    static func seeds() throws -> [[UInt8]] {
        let records: [[String: Value]] = [
            [:], ["a": 1], ["name": "Pizza Place", "rating": 4.5, "open": true],
            ["b": .bytes([0, 255]), "d": .date(Date(timeIntervalSinceReferenceDate: 12.5)), "n": [1, "x", [:]]],
            ["nested": ["x": [.double(-0.0), .double(.nan)], "y": .int(.min)]],
        ]
        var seeds = try records.map { try GDBMStorageFormat.encodeRecord($0) }
        seeds += try [ItemID.int(-1), .string("r1"), .bytes([0, 1])].map { try GDBMStorageFormat.encodeKey(itemType: "Note", id: $0) }
        seeds.append(GDBMStorageFormat.encodeJournal([.store(key: seeds[0], value: seeds[1]), .delete(key: [1, 2])]))
        seeds.append(GDBMStorageFormat.metadataValue)
        return seeds
    }
}
