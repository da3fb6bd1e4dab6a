import CSQLite
import Foundation

/// The migration loops a C programmer would write with the raw APIs, for the migration scenarios.
enum RawMigrationLoops {
    /// The page cache the raw loops give SQLite: the scenarios' whole memory budget, 64 MiB.
    static let cacheSizePragma = "PRAGMA cache_size = -65536"

    /// Ways to copy GDBM pairs into a keyed SQLite table.
    enum GDBMToSQLite: String, CaseIterable {
        /// `gdbm_fetch` in GDBM's order into a `WITHOUT ROWID` table keyed by the key.
        case keyedWithoutRowid = "keyed-without-rowid"
        /// `gdbm_fetch` in GDBM's order into a rowid table whose key is its primary key.
        case keyedRowid = "keyed-rowid"
        /// Every key read and sorted first, then fetched and inserted in key order into a `WITHOUT
        /// ROWID` table (appends at the right edge of the B-tree).
        case sortedKeys = "sorted-keys"
        /// The library's own strategy done by hand: a rowid table loaded in GDBM's order, its
        /// unique key index built once at the end.
        case indexAfterLoad = "index-after-load"

        /// The loops a C programmer would write first: the ratio's target is the strongest of them.
        static let keyedInserts: [GDBMToSQLite] = [.keyedWithoutRowid, .keyedRowid, .sortedKeys]

        /// Copies every pair of the GDBM file at `source` into a new SQLite database at `target`,
        /// in one transaction, with SQLite's default journal and a 64 MiB page cache.
        func run(source: String, target: String) throws {
            try? FileManager.default.removeItem(atPath: target)
            let gdbm = try RawGDBM(path: source, mode: .read)
            let sqlite = try RawSQLite(path: target)
            try sqlite.execute(RawMigrationLoops.cacheSizePragma)
            switch self {
            case .keyedWithoutRowid, .sortedKeys:
                try sqlite.execute(#"CREATE TABLE "pairs" ("key" PRIMARY KEY, "value") WITHOUT ROWID"#)
            case .keyedRowid:
                try sqlite.execute(#"CREATE TABLE "pairs" ("key" PRIMARY KEY, "value")"#)
            case .indexAfterLoad:
                try sqlite.execute(#"CREATE TABLE "pairs" ("key" NOT NULL, "value")"#)
            }
            let insert = try sqlite.prepare(#"INSERT INTO "pairs" ("key", "value") VALUES (?, ?)"#)
            try sqlite.execute("BEGIN IMMEDIATE")
            func store(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
                insert.bind(1, key)
                insert.bind(2, value)
                _ = try insert.step()
                insert.reset()
            }
            if self == .sortedKeys {
                let keys = gdbm.keys().sorted { $0.lexicographicallyPrecedes($1) }
                for key in keys {
                    try key.withUnsafeBytes { keyBytes in try gdbm.fetch(keyBytes) { try store(keyBytes, $0) } }
                }
            } else {
                try gdbm.forEach(store)
            }
            if self == .indexAfterLoad { try sqlite.execute(#"CREATE UNIQUE INDEX "pairs_key" ON "pairs" ("key")"#) }
            try sqlite.execute("COMMIT")
        }
    }

    /// Copies every row of a legacy table into a new GDBM file: each row's columns encoded one
    /// after the other (a type byte, then 8 bytes or a length and the bytes) under its integer
    /// key, with `gdbm_store`, the way a C programmer moving the table would.
    static func sqliteToGDBM(source: String, table: String, columns: [String], target: String) throws {
        try? FileManager.default.removeItem(atPath: target)
        let sqlite = try RawSQLite(path: source)
        let select = try sqlite.prepare("SELECT \(columns.joined(separator: ", ")) FROM \(table)")
        let gdbm = try RawGDBM(path: target, mode: .create)
        var record: [UInt8] = []
        while try select.step() {
            record.removeAll(keepingCapacity: true)
            for column in 1..<Int32(columns.count) { select.append(column, to: &record) }
            var key = UInt64(bitPattern: select.int64(0)).bigEndian
            try withUnsafeBytes(of: &key) { keyBytes in
                try record.withUnsafeBytes { try gdbm.store(key: keyBytes, value: $0) }
            }
        }
    }
}

extension RawStatement {
    /// Appends column `index` of the current row: a type byte, then 8 bytes for numbers, or a
    /// 4-byte length and the bytes for text and blobs.
    func append(_ index: Int32, to record: inout [UInt8]) {
        let type = columnType(index)
        record.append(UInt8(truncatingIfNeeded: type))
        switch type {
        case SQLITE_INTEGER:
            var value = UInt64(bitPattern: int64(index)).bigEndian
            withUnsafeBytes(of: &value) { record.append(contentsOf: $0) }
        case SQLITE_FLOAT:
            var value = double(index).bitPattern.bigEndian
            withUnsafeBytes(of: &value) { record.append(contentsOf: $0) }
        case SQLITE_TEXT, SQLITE_BLOB:
            let bytes = columnBytes(index)
            var count = UInt32(bytes.count).bigEndian
            withUnsafeBytes(of: &count) { record.append(contentsOf: $0) }
            record.append(contentsOf: bytes)
        default:
            break
        }
    }
}
