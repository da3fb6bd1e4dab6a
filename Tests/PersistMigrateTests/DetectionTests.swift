import CGDBM
import CSQLite
import Foundation
import Persist
import PersistGDBM
import PersistTestSupport
import Testing

/// Kinds and layouts detected from content, on files written by other programs: made here with
/// the GDBM and SQLite C APIs, in every GDBM format and in both SQLite journal modes.
// Serialized: each test blocks a test thread while the tool runs.
@Suite("persist-migrate detects kinds and layouts from content", .serialized)
struct DetectionTests {
    static let pairs: [[UInt8]: [UInt8]] = {
        var pairs: [[UInt8]: [UInt8]] = [[]: Array("empty key".utf8), [0]: [], [0xff, 0xfe]: [0, 0, 0]]
        for index in 0..<150 { pairs[Array("key-\(index)".utf8)] = (0..<(index % 23)).map { UInt8(($0 * index) % 256) } }
        return pairs
    }()

    static func summary(_ output: ProductRunner.Output) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any] ?? [:]
    }

    @Test("a GDBM file of another program, in each GDBM format, is read in the raw layout and said so",
          arguments: ForeignFile.Format.allCases)
    func foreignGDBM(_ format: ForeignFile.Format) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try ForeignFile.create(directory.path("legacy.dbm"), pairs: Self.pairs, format: format)
        let before = fileBytes(directory.path("legacy.dbm"))
        let output = try Tool.run(["legacy.dbm", "copy.sqlite", "--json", "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let summary = try Self.summary(output)
        let source = summary["source"] as? [String: Any]
        #expect(source?["kind"] as? String == "gdbm" && source?["kind_detected"] as? Bool == true)
        #expect(source?["layout"] as? String == "raw" && source?["layout_detected"] as? Bool == true)
        #expect((summary["notes"] as? [String])?.first?.contains("another program") == true)
        let copied = try StoreFiles.contents(.sqlite, directory.path("copy.sqlite"))
        #expect(copied == Set(Self.pairs.map { Item(itemType: "Entry", id: .bytes($0.key), attributes: ["value": .bytes($0.value)]) }))
        #expect(fileBytes(directory.path("legacy.dbm")) == before)
        // And back into a raw file, pair for pair.
        let back = try Tool.run(["copy.sqlite", "back.dbm", "--to-layout", "raw", "--progress", "never"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try ForeignFile.pairs(directory.path("back.dbm")) == Self.pairs)
    }

    @Test("Persist's native layout is detected in each GDBM format", arguments: ForeignFile.Format.allCases)
    func nativeGDBM(_ format: ForeignFile.Format) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // An empty file of the format, made with the C API, adopted and filled by the store.
        try ForeignFile.create(directory.path("store.dbm"), pairs: [:], format: format)
        let items = StoreFiles.items(count: 12)
        let store = GDBMDataStore(path: directory.path("store.dbm"), options: .init(logger: StoreFiles.quiet))
        try store.setup()
        try store.writeSync { accessor in for item in items { try accessor.insert(item) } }
        try store.tearDown()
        let output = try Tool.run(["store.dbm", "copy.sqlite", "--json", "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let source = try Self.summary(output)["source"] as? [String: Any]
        #expect(source?["layout"] as? String == "native" && source?["layout_detected"] as? Bool == true)
        #expect(try StoreFiles.contents(.sqlite, directory.path("copy.sqlite")) == Set(items))
    }

    /// A database written with the SQLite C API in `mode` (`WAL` or `DELETE`), closed cleanly.
    static func database(_ path: String, mode: String, rows: Int) throws {
        let raw = try RawDatabase(path)
        try raw.exec("PRAGMA journal_mode = \(mode); CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT, weight REAL)")
        try raw.exec("BEGIN")
        for id in 0..<rows { try raw.exec("INSERT INTO notes VALUES (\(id), 'note \(id)', \(id).5)") }
        try raw.exec("COMMIT")
        raw.close()
    }

    @Test("an SQLite source in WAL or rollback-journal mode is detected, and its directory stays exactly as it was",
          arguments: ["WAL", "DELETE"])
    func sqliteModes(_ mode: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: false)
        try Self.database(source.appendingPathComponent("app.db").path, mode: mode, rows: 40)
        let listing = try FileManager.default.contentsOfDirectory(atPath: source.path)
        let bytes = fileBytes(source.appendingPathComponent("app.db").path)
        #expect(listing == ["app.db"])
        let output = try Tool.run(["in/app.db", "copy.gdbm", "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("copied sqlite:in/app.db → gdbm:copy.gdbm"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: source.path) == listing)
        #expect(fileBytes(source.appendingPathComponent("app.db").path) == bytes)
        #expect(try StoreFiles.contents(.gdbm, directory.path("copy.gdbm")).count == 40)
    }

    @Test("a WAL source whose log still holds commits is read with them, and its files are left")
    func sqliteWithLog() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("busy.sqlite")
        let raw = try RawDatabase(path)
        try raw.exec("PRAGMA journal_mode = WAL; CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        try raw.exec("INSERT INTO notes VALUES (1, 'in the log')")
        // Another program still has the database open: its commits are in the log only.
        let output = try Tool.run(["busy.sqlite", "copy.gdbm", "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try StoreFiles.contents(.gdbm, directory.path("copy.gdbm"))
            == [Item(itemType: "notes", id: 1, attributes: ["text": "in the log"])])
        raw.close()
    }
}
