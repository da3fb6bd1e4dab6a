import CGDBM
import Foundation

/// The raw GDBM C API, for the baselines.
final class RawGDBM {
    let handle: GDBM_FILE

    enum Mode { case create, read }

    /// Opens `path`: a new file is written with `GDBM_NOMMAP` (faster for writing, and what the
    /// store does); a file is read with GDBM's defaults (memory-mapped, the fastest way to read).
    init(path: String, mode: Mode) throws {
        let flags = mode == .create ? GDBM_NEWDB | GDBM_NOMMAP : GDBM_READER
        guard let handle = gdbm_open(path, 0, flags, 0o644, nil) else {
            throw BenchmarkError("cannot open \(path): \(String(cString: gdbm_strerror(persist_gdbm_errno())))")
        }
        self.handle = handle
    }

    deinit {
        gdbm_close(handle)
    }

    func store(key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws {
        let keyDatum = datum(dptr: UnsafeMutablePointer(mutating: key.baseAddress?.assumingMemoryBound(to: CChar.self)),
                             dsize: Int32(key.count))
        let valueDatum = datum(dptr: UnsafeMutablePointer(mutating: value.baseAddress?.assumingMemoryBound(to: CChar.self)),
                               dsize: Int32(value.count))
        guard gdbm_store(handle, keyDatum, valueDatum, GDBM_REPLACE) == 0 else {
            throw BenchmarkError("gdbm_store: \(String(cString: gdbm_strerror(persist_gdbm_errno())))")
        }
    }

    func sync() throws {
        guard gdbm_sync(handle) == 0 else {
            throw BenchmarkError("gdbm_sync: \(String(cString: gdbm_strerror(persist_gdbm_errno())))")
        }
    }

    /// Calls `body` with the value stored under `key`, if there is one.
    func fetch(_ key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let keyDatum = datum(dptr: UnsafeMutablePointer(mutating: key.baseAddress?.assumingMemoryBound(to: CChar.self)),
                             dsize: Int32(key.count))
        let value = gdbm_fetch(handle, keyDatum)
        guard let bytes = value.dptr else { return }
        defer { free(bytes) }
        try body(UnsafeRawBufferPointer(start: bytes, count: Int(value.dsize)))
    }

    /// Every key, in the file's order.
    func keys() -> [[UInt8]] {
        var keys: [[UInt8]] = []
        var key = gdbm_firstkey(handle)
        while let bytes = key.dptr {
            keys.append([UInt8](UnsafeRawBufferPointer(start: bytes, count: Int(key.dsize))))
            let next = gdbm_nextkey(handle, key)
            free(bytes)
            key = next
        }
        return keys
    }

    /// Calls `body` with every key and value, in the file's order.
    func forEach(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) throws {
        var key = gdbm_firstkey(handle)
        while let keyBytes = key.dptr {
            let value = gdbm_fetch(handle, key)
            defer { free(value.dptr) }
            if let valueBytes = value.dptr {
                try body(UnsafeRawBufferPointer(start: keyBytes, count: Int(key.dsize)),
                         UnsafeRawBufferPointer(start: valueBytes, count: Int(value.dsize)))
            }
            let next = gdbm_nextkey(handle, key)
            free(keyBytes)
            key = next
        }
    }
}
