import CGDBM
import Foundation

/// Builds and reads GDBM files with the C API directly, the way another program would.
public enum ForeignFile {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Calls `body` with a datum over a copy of `bytes` (never a NULL `dptr`, even when empty).
    public static func withDatum<R>(_ bytes: [UInt8], _ body: (datum) -> R) -> R {
        var copy = bytes + [0]   // never empty, so dptr is never NULL
        return copy.withUnsafeMutableBytes { buffer in
            body(datum(dptr: buffer.baseAddress?.assumingMemoryBound(to: CChar.self), dsize: Int32(bytes.count)))
        }
    }

    /// The file formats GDBM writes: the standard one, and the extended one with a sync counter
    /// (`GDBM_NUMSYNC`, GDBM 1.21 and later).
    public enum Format: String, Sendable, CaseIterable {
        case standard, numsync
    }

    /// Creates (or replaces) a GDBM file holding exactly `pairs`, in `format`.
    public static func create(_ path: String, pairs: [[UInt8]: [UInt8]], format: Format = .standard) throws {
        let flags = format == .numsync ? GDBM_NEWDB | GDBM_NUMSYNC : GDBM_NEWDB
        guard let file = gdbm_open(path, 0, flags, 0o644, nil) else {
            throw Failure(description: "gdbm_open \(path): \(String(cString: gdbm_strerror(persist_gdbm_errno())))")
        }
        defer { gdbm_close(file) }
        for (key, value) in pairs {
            let result = withDatum(key) { keyDatum in withDatum(value) { gdbm_store(file, keyDatum, $0, GDBM_REPLACE) } }
            guard result == 0 else { throw Failure(description: "gdbm_store failed: \(gdbm_last_errno(file))") }
        }
    }

    /// Stores one more pair into an existing file.
    public static func store(_ path: String, key: [UInt8], value: [UInt8]) throws {
        guard let file = gdbm_open(path, 0, GDBM_WRITER, 0o644, nil) else {
            throw Failure(description: "gdbm_open \(path): \(String(cString: gdbm_strerror(persist_gdbm_errno())))")
        }
        defer { gdbm_close(file) }
        let result = withDatum(key) { keyDatum in withDatum(value) { gdbm_store(file, keyDatum, $0, GDBM_REPLACE) } }
        guard result == 0 else { throw Failure(description: "gdbm_store failed: \(gdbm_last_errno(file))") }
    }

    /// Every pair of a GDBM file, read with `gdbm_firstkey`/`gdbm_nextkey`/`gdbm_fetch`.
    public static func pairs(_ path: String) throws -> [[UInt8]: [UInt8]] {
        guard let file = gdbm_open(path, 0, GDBM_READER, 0o644, nil) else {
            throw Failure(description: "gdbm_open \(path): \(String(cString: gdbm_strerror(persist_gdbm_errno())))")
        }
        defer { gdbm_close(file) }
        var pairs: [[UInt8]: [UInt8]] = [:]
        var key = gdbm_firstkey(file)
        while let pointer = key.dptr {
            let keyBytes = [UInt8](UnsafeRawBufferPointer(start: pointer, count: Int(key.dsize)))
            let value = gdbm_fetch(file, key)
            guard let valuePointer = value.dptr else { throw Failure(description: "gdbm_fetch lost a listed key") }
            pairs[keyBytes] = [UInt8](UnsafeRawBufferPointer(start: valuePointer, count: Int(value.dsize)))
            free(valuePointer)
            let next = gdbm_nextkey(file, key)
            free(pointer)
            key = next
        }
        return pairs
    }
}
