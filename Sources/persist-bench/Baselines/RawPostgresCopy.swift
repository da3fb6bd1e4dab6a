import CLibPQ
import CSQLite
import Foundation

/// The raw loops of the PostgreSQL migration scenarios: `sqlite3_step` plus libpq's binary COPY
/// of the same rows into the same table and index, and back with `COPY … TO STDOUT (FORMAT binary)`
/// plus prepared SQLite inserts, in one transaction each.
enum RawPostgresCopy {
    /// The legacy table of the PostgreSQL scenarios: integer key, text, real and integer columns.
    static let table = "legacy"

    /// A legacy SQLite table of `count` rows and one secondary index, written with plain SQL.
    static func legacySQLite(count: Int, at path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        let raw = try RawSQLite(path: path)
        try raw.execute("""
            CREATE TABLE legacy (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL, rating INTEGER);
            CREATE INDEX legacy_rating ON legacy (rating)
            """)
        let insert = try raw.prepare("INSERT INTO legacy VALUES (?, ?, ?, ?)")
        try raw.execute("BEGIN")
        for number in 0..<count {
            insert.bind(1, Int64(number))
            insert.bind(2, "restaurant \(number) of the legacy table")
            insert.bind(3, Double(number) / 7)
            insert.bind(4, Int64(number % 5))
            _ = try insert.step()
            insert.reset()
        }
        try raw.execute("COMMIT")
    }

    /// SQLite → PostgreSQL: selects every row with `sqlite3_step` and sends it with binary COPY into
    /// `schema`.legacy, then builds the same index, in one transaction.
    static func sqliteToPostgres(source: String, url: String, schema: String) throws {
        let sqlite = try RawSQLite(path: source)
        let select = try sqlite.prepare("SELECT id, name, score, rating FROM legacy")
        let pg = try RawPostgres(url: url)
        let qualified = "\"\(schema)\".legacy"
        try pg.execute("""
            BEGIN; CREATE SCHEMA "\(schema)";
            CREATE TABLE \(qualified) (id bigint PRIMARY KEY, name text NOT NULL, score double precision, rating bigint)
            """)
        let start = PQexec(pg.handle, "COPY \(qualified) (id, name, score, rating) FROM STDIN (FORMAT binary)")
        defer { PQclear(start) }
        guard PQresultStatus(start) == PGRES_COPY_IN else { throw BenchmarkError(String(cString: PQerrorMessage(pg.handle))) }
        var buffer: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        buffer.reserveCapacity(128 * 1024)
        while try select.step() {
            append(Int16(4), to: &buffer)
            field(RawPostgres.int8(select.int64(0)), to: &buffer)
            let name = select.columnBytes(1)
            append(Int32(name.count), to: &buffer)
            buffer.append(contentsOf: name)
            if select.isNull(2) { append(Int32(-1), to: &buffer) } else { field(RawPostgres.float8(select.double(2)), to: &buffer) }
            if select.isNull(3) { append(Int32(-1), to: &buffer) } else { field(RawPostgres.int8(select.int64(3)), to: &buffer) }
            if buffer.count >= 64 * 1024 { try send(&buffer, pg) }
        }
        try finishCopy(&buffer, pg)
        try pg.execute("CREATE INDEX legacy_rating ON \(qualified) (rating); COMMIT")
    }

    /// GDBM → PostgreSQL: every pair with `gdbm_firstkey`/`gdbm_nextkey`/`gdbm_fetch`, sent with
    /// binary COPY into a `(key bytea PRIMARY KEY, value bytea)` table of `schema`, in one
    /// transaction (what a C programmer moving a GDBM file onto a server writes).
    static func gdbmToPostgres(source: String, url: String, schema: String) throws {
        let gdbm = try RawGDBM(path: source, mode: .read)
        let pg = try RawPostgres(url: url)
        let qualified = "\"\(schema)\".pairs"
        try pg.execute("BEGIN; CREATE SCHEMA \"\(schema)\"; CREATE TABLE \(qualified) (key bytea PRIMARY KEY, value bytea)")
        let start = PQexec(pg.handle, "COPY \(qualified) (key, value) FROM STDIN (FORMAT binary)")
        defer { PQclear(start) }
        guard PQresultStatus(start) == PGRES_COPY_IN else { throw BenchmarkError(String(cString: PQerrorMessage(pg.handle))) }
        var buffer: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        buffer.reserveCapacity(128 * 1024)
        try gdbm.forEach { key, value in
            append(Int16(2), to: &buffer)
            append(Int32(key.count), to: &buffer)
            buffer.append(contentsOf: key)
            append(Int32(value.count), to: &buffer)
            buffer.append(contentsOf: value)
            if buffer.count >= 64 * 1024 { try send(&buffer, pg) }
        }
        try finishCopy(&buffer, pg)
        try pg.execute("COMMIT")
    }

    private static func finishCopy(_ buffer: inout [UInt8], _ pg: RawPostgres) throws {
        append(Int16(-1), to: &buffer)
        try send(&buffer, pg)
        guard PQputCopyEnd(pg.handle, nil) == 1 else { throw BenchmarkError(String(cString: PQerrorMessage(pg.handle))) }
        while let result = PQgetResult(pg.handle) {
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COMMAND_OK else {
                throw BenchmarkError(String(cString: PQerrorMessage(pg.handle)))
            }
        }
    }

    /// PostgreSQL → SQLite: `COPY (SELECT …) TO STDOUT (FORMAT binary)` decoded row by row into a
    /// prepared insert of a new SQLite table with the same index, in one transaction.
    static func postgresToSQLite(url: String, schema: String, target: String) throws {
        try? FileManager.default.removeItem(atPath: target)
        let sqlite = try RawSQLite(path: target)
        try sqlite.execute("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            CREATE TABLE legacy (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL, rating INTEGER)
            """)
        let insert = try sqlite.prepare("INSERT INTO legacy VALUES (?, ?, ?, ?)")
        try sqlite.execute("BEGIN")
        let pg = try RawPostgres(url: url)
        let start = PQexec(pg.handle, "COPY \"\(schema)\".legacy (id, name, score, rating) TO STDOUT (FORMAT binary)")
        defer { PQclear(start) }
        guard PQresultStatus(start) == PGRES_COPY_OUT else { throw BenchmarkError(String(cString: PQerrorMessage(pg.handle))) }
        var pending: [UInt8] = []
        var headerSkipped = false
        var chunk: UnsafeMutablePointer<CChar>?
        while true {
            let length = PQgetCopyData(pg.handle, &chunk, 0)
            if length < 0 { break }
            guard let data = chunk else { continue }
            pending.append(contentsOf: UnsafeRawBufferPointer(start: data, count: Int(length)))
            PQfreemem(data)
            chunk = nil
            var offset = 0
            if !headerSkipped {
                offset = 19
                headerSkipped = true
            }
            pending.withUnsafeBytes { bytes in
                while offset + 2 <= bytes.count {
                    let fields = Int16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int16.self))
                    if fields < 0 { offset = bytes.count; return }
                    var cursor = offset + 2
                    var ranges: [Range<Int>?] = []
                    var complete = true
                    for _ in 0..<fields {
                        guard cursor + 4 <= bytes.count else { complete = false; break }
                        let size = Int(Int32(bigEndian: bytes.loadUnaligned(fromByteOffset: cursor, as: Int32.self)))
                        cursor += 4
                        if size < 0 { ranges.append(nil); continue }
                        guard cursor + size <= bytes.count else { complete = false; break }
                        ranges.append(cursor..<cursor + size)
                        cursor += size
                    }
                    guard complete else { return }
                    func int64(_ range: Range<Int>) -> Int64 { Int64(bigEndian: bytes.loadUnaligned(fromByteOffset: range.lowerBound, as: Int64.self)) }
                    if let id = ranges[0] { insert.bind(1, int64(id)) }
                    if let name = ranges[1] { insert.bind(2, String(decoding: UnsafeRawBufferPointer(rebasing: bytes[name]), as: UTF8.self)) }
                    if let score = ranges[2] { insert.bind(3, Double(bitPattern: UInt64(bitPattern: int64(score)))) } else { insert.bindNull(3) }
                    if let rating = ranges[3] { insert.bind(4, int64(rating)) } else { insert.bindNull(4) }
                    _ = try? insert.step()
                    insert.reset()
                    offset = cursor
                }
            }
            pending.removeFirst(offset)
        }
        while let result = PQgetResult(pg.handle) { PQclear(result) }
        try sqlite.execute("CREATE INDEX legacy_rating ON legacy (rating); COMMIT")
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
    }

    private static func field(_ bytes: [UInt8], to buffer: inout [UInt8]) {
        append(Int32(bytes.count), to: &buffer)
        buffer.append(contentsOf: bytes)
    }

    private static func send(_ buffer: inout [UInt8], _ pg: RawPostgres) throws {
        let sent = buffer.withUnsafeBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { PQputCopyData(pg.handle, $0.baseAddress, Int32(pointer.count)) }
        }
        guard sent == 1 else { throw BenchmarkError(String(cString: PQerrorMessage(pg.handle))) }
        buffer.removeAll(keepingCapacity: true)
    }
}
