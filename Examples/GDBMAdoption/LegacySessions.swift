import CGDBM
import Foundation

/// The "before": a session table kept in a GDBM file with the C API, token → user name.
final class LegacySessions {
    let handle: GDBM_FILE

    init(path: String) throws {
        guard let handle = gdbm_open(path, 0, GDBM_WRCREAT, 0o644, nil) else {
            throw LegacySessionError("cannot open \(path): \(String(cString: gdbm_strerror(persist_gdbm_errno())))")
        }
        self.handle = handle
    }

    deinit {
        gdbm_close(handle)
    }

    func start(token: String, user: String) throws {
        var key = Array(token.utf8)
        var value = Array(user.utf8)
        let result = key.withUnsafeMutableBytes { keyBytes in
            value.withUnsafeMutableBytes { valueBytes in
                gdbm_store(handle, Self.datum(keyBytes), Self.datum(valueBytes), GDBM_REPLACE)
            }
        }
        guard result == 0 else { throw LegacySessionError("cannot store the session \(token)") }
    }

    func user(for token: String) -> String? {
        var key = Array(token.utf8)
        let found = key.withUnsafeMutableBytes { gdbm_fetch(handle, Self.datum($0)) }
        guard let bytes = found.dptr else { return nil }
        defer { free(bytes) }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(found.dsize)), as: UTF8.self)
    }

    static func datum(_ bytes: UnsafeMutableRawBufferPointer) -> datum {
        CGDBM.datum(dptr: bytes.baseAddress?.assumingMemoryBound(to: CChar.self), dsize: Int32(bytes.count))
    }
}

struct LegacySessionError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
