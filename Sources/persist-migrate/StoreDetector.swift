import Foundation

/// Tells what a file holds from its first bytes, as Python's `dbm.whichdb` does: an SQLite
/// database (and whether it is in WAL mode), a GDBM file of any format GDBM writes (standard or
/// numsync, 32- or 64-bit offsets, either byte order), or something else.
enum StoreDetector {
    /// What is at a path.
    enum Finding: Equatable {
        case missing
        case directory
        case special
        case unreadable(String)
        /// A file of 0 bytes: not a store of any kind.
        case empty
        case sqlite(wal: Bool)
        case gdbm(GDBMFormat)
        /// A Berkeley DB file (what Python's `dbm.bsd` writes), which no store reads.
        case berkeleyDB
        /// Bytes of no known store; the first few, for the message.
        case unknown(prefix: [UInt8])
    }

    /// The GDBM file formats, by the magic number their header starts with.
    enum GDBMFormat: Equatable {
        case standard, numsync, old
        /// Written on a machine of the other byte order: GDBM cannot open it here.
        case byteSwapped
    }

    static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

    /// GDBM's magic numbers: the old one, 32- and 64-bit offsets, and the numsync formats.
    static let gdbmMagics: [UInt32: GDBMFormat] = [
        0x1357_9ACE: .old, 0x1357_9ACD: .standard, 0x1357_9ACF: .standard,
        0x1357_9AD0: .numsync, 0x1357_9AD1: .numsync,
    ]

    static func examine(_ path: String) -> Finding {
        switch FileSystem.entry(path) {
        case .missing: return .missing
        case .directory: return .directory
        case .special: return .special
        case .unreadable(let reason): return .unreadable(reason)
        case .file(let size) where size == 0: return .empty
        case .file:
            guard let bytes = FileSystem.prefix(of: path, count: 100) else {
                return .unreadable(String(cString: strerror(EACCES)))
            }
            return classify(bytes)
        }
    }

    static func classify(_ bytes: [UInt8]) -> Finding {
        if bytes.starts(with: sqliteHeader) {
            // Bytes 18 and 19 are the write and read format versions: 2 for WAL.
            return .sqlite(wal: bytes.count > 19 && bytes[18] == 2 && bytes[19] == 2)
        }
        if bytes.count >= 4 {
            let little = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
            if let format = gdbmMagics[little] { return .gdbm(format) }
            if gdbmMagics[little.byteSwapped] != nil { return .gdbm(.byteSwapped) }
        }
        if bytes.count >= 16 {
            // Berkeley DB keeps its magic number at byte 12: hash 0x061561, B-tree 0x053162.
            let magic = UInt32(bytes[12]) | UInt32(bytes[13]) << 8 | UInt32(bytes[14]) << 16 | UInt32(bytes[15]) << 24
            if [0x0006_1561, 0x0005_3162].contains(magic) || [0x0006_1561, 0x0005_3162].contains(magic.byteSwapped) {
                return .berkeleyDB
            }
        }
        return .unknown(prefix: Array(bytes.prefix(8)))
    }

    /// The kind a found file is, or `nil` when it is no store's.
    static func kind(of finding: Finding) -> StoreName.Kind? {
        switch finding {
        case .sqlite: .sqlite
        case .gdbm: .gdbm
        default: nil
        }
    }

    /// The kind a new file of this name would be, from its extension.
    static func kind(forExtensionOf path: String) -> StoreName.Kind? {
        switch (path as NSString).pathExtension.lowercased() {
        case "sqlite", "sqlite3": .sqlite
        case "gdbm", "dbm": .gdbm
        default: nil
        }
    }

    /// What a finding is, for messages: "an SQLite database", "a directory", "0 bytes long".
    static func describe(_ finding: Finding) -> String {
        switch finding {
        case .missing: "missing"
        case .directory: "a directory"
        case .special: "not a regular file"
        case .unreadable(let reason): "unreadable (\(reason))"
        case .empty: "empty (0 bytes), so it is no store"
        case .sqlite: "an SQLite database"
        case .gdbm(.byteSwapped): "a GDBM file written on a machine of the other byte order"
        case .gdbm: "a GDBM file"
        case .berkeleyDB: "a Berkeley DB file, which persist-migrate does not read"
        case .unknown(let prefix):
            "neither an SQLite database nor a GDBM file (it starts with "
                + prefix.map { String(format: "%02x", $0) }.joined(separator: " ") + ")"
        }
    }
}
