// The fuzz target of the GDBM storage format's decoders (records, keys, journals).
//
// Built with `-sanitize=fuzzer -DFUZZING` (see scripts/fuzz-records.sh), libFuzzer drives
// `LLVMFuzzerTestOneInput`. Built normally, it is a small tool that runs the same checks over
// the files named on the command line, for replaying a corpus or a crashing input.

import Foundation
import Persist
import PersistGDBM

/// Runs every decoder over `bytes`; any outcome but a trap is fine, except that a record that
/// decodes must re-encode to exactly the same bytes (the format is canonical).
func exercise(_ bytes: [UInt8]) {
    if let attributes = try? GDBMStorageFormat.decodeRecord(bytes) {
        guard let encoded = try? GDBMStorageFormat.encodeRecord(attributes), encoded == bytes else {
            fatalError("a decoded record does not re-encode to the same bytes: \(bytes)")
        }
        for name in attributes.keys {
            guard (try? GDBMStorageFormat.decodeAttribute(name, inRecord: bytes)) == attributes[name] else {
                fatalError("a lazily decoded attribute differs from the full decode: \(bytes)")
            }
        }
    }
    for name in ["a", "b", "name", "\u{0}"] {
        _ = try? GDBMStorageFormat.decodeAttribute(name, inRecord: bytes)
    }
    if let reference = try? GDBMStorageFormat.decodeKey(bytes) {
        guard let encoded = try? GDBMStorageFormat.encodeKey(itemType: reference.itemType, id: reference.id),
              encoded == bytes
        else { fatalError("a decoded key does not re-encode to the same bytes: \(bytes)") }
    }
    if let entries = try? GDBMStorageFormat.decodeJournal(bytes) {
        guard GDBMStorageFormat.encodeJournal(entries) == bytes else {
            fatalError("a decoded journal does not re-encode to the same bytes: \(bytes)")
        }
    }
    _ = try? GDBMStorageFormat.decodeMetadataValue(bytes)
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    exercise(data.map { [UInt8](UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
#else
@main
enum ReplayInputs {
    static func main() throws {
        let paths = CommandLine.arguments.dropFirst()
        if paths.isEmpty {
            FileHandle.standardError.write(Data("usage: persist-gdbm-fuzz <input-file>…\n".utf8))
            exit(64)
        }
        for path in paths {
            let url = URL(fileURLWithPath: path)
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let files = exists && isDirectory.boolValue
                ? try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil) : [url]
            for file in files { exercise([UInt8](try Data(contentsOf: file))) }
            print("\(path): \(files.count) input(s) checked")
        }
    }
}
#endif
