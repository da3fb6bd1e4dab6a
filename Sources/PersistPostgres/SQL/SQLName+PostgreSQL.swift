import Persist
import PersistSQL

/// Table and column names for item types and attributes, within PostgreSQL's limit of 63 bytes
/// per identifier (longer ones it would silently cut).
///
/// A name that fits and is free is used as it is; a longer one (or one the store reserves) gets
/// its first bytes, an underscore and 16 hexadecimal digits of a hash of the whole name, and the
/// store's metadata records which item type or attribute it stands for.
extension SQLName {
    /// PostgreSQL's longest identifier, in bytes (`NAMEDATALEN - 1`).
    static let maximumBytes = 63

    /// `"schema"."name"`.
    static func qualified(_ schema: String, _ name: String) -> String {
        quoted(schema) + "." + quoted(name)
    }

    /// The names of PostgreSQL's system columns, which every table has and no column may take.
    static let systemColumns: Set<String> = ["tableoid", "xmin", "cmin", "xmax", "cmax", "ctid"]

    /// A name for `wanted` that `isTaken` does not refuse: `wanted` itself when it fits in 63 bytes
    /// and is free, otherwise a shortened name with a hash.
    static func allocate(_ wanted: String, isTaken: (String) -> Bool) -> String {
        if wanted.utf8.count <= maximumBytes, !isTaken(wanted) { return wanted }
        var attempt = 0
        while true {
            let hash = StableName.hash(attempt == 0 ? wanted : "\(wanted)#\(attempt)")
            let suffix = "_" + hash
            let candidate = prefix(of: wanted, bytes: maximumBytes - suffix.utf8.count) + suffix
            if !isTaken(candidate) { return candidate }
            attempt += 1
        }
    }

    /// The longest prefix of `name` of at most `bytes` bytes that ends on a character boundary.
    static func prefix(of name: String, bytes: Int) -> String {
        var result = ""
        var count = 0
        for scalar in name.unicodeScalars {
            let length = String(scalar).utf8.count
            if count + length > bytes { break }
            result.unicodeScalars.append(scalar)
            count += length
        }
        return result
    }
}

/// A 64-bit FNV-1a hash of a string's UTF-8 bytes: stable across runs, processes and machines,
/// so that derived names and the advisory-lock key of a schema are the same for every process.
enum StableName {
    static func value(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }

    /// 16 lower-case hexadecimal digits.
    static func hash(_ text: String) -> String {
        let hex = String(value(text), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
