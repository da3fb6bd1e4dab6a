import CSQLite
import Foundation
import Persist
import PersistConformance
import PersistSQLite
import Testing
import PersistTestSupport

/// Bad files and bad conditions: each gives a `DataStoreError` with SQLite's code and message and
/// the path, and leaves the file as it was. More bad files (missing, random, truncated, of another
/// kind or a newer format) are in ReliabilityTests' bad-input suite.
@Suite("SQLiteDataStore reports bad files and conditions clearly and changes nothing")
struct ErrorTests {
    /// The bytes of `path`, or `nil` when there is no file.
    static func bytes(_ path: String) -> Data? {
        FileManager.default.contents(atPath: path)
    }

    /// Expects setup of a store on `path` to fail with `code` and SQLite's `engineCode`.
    @discardableResult
    static func expectSetupFailure(
        _ path: String, _ code: DataStoreError.Code, engineCode: Int32,
        options: SQLiteDataStore.Options = quietOptions(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> DataStoreError? {
        let store = SQLiteDataStore(path: path, options: options)
        let error = expectError(code, sourceLocation: sourceLocation) { try store.setup() }
        #expect(error?.engineCode.map { $0 & 0xFF } == Int(engineCode), sourceLocation: sourceLocation)
        #expect(error?.engineMessage?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(error?.path == path, sourceLocation: sourceLocation)
        #expect(error?.message.contains(path) == true, sourceLocation: sourceLocation)
        // The store stays usable as an object: it is simply not open.
        expectError(.misuse, sourceLocation: sourceLocation) { try store.read { _ in 1 } }
        return error
    }

    /// A database with one table of `rows` rows, written in rollback-journal mode by plain SQL.
    static func makeDatabase(_ path: String, rows: Int = 200) throws {
        let raw = try RawDatabase(path)
        try raw.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); BEGIN;")
        for index in 0..<rows {
            _ = try raw.rows("INSERT INTO notes VALUES (?, ?)",
                             [.integer(Int64(index)), .text(String(repeating: "note \(index) ", count: 20))])
        }
        try raw.exec("COMMIT;")
        raw.close()
    }

    @Test("a missing file is notFound, and the advice fits: createIfMissing when it is off, not when the store is read-only")
    func missingFileAdvice() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("missing.sqlite")
        let notCreating = Self.expectSetupFailure(path, .notFound, engineCode: SQLITE_CANTOPEN,
                                                  options: quietOptions { $0.createIfMissing = false })
        #expect(notCreating?.message.contains("createIfMissing") == true)
        // createIfMissing is on (the default), so telling a read-only store's user to set it is no help.
        let readOnly = Self.expectSetupFailure(path, .notFound, engineCode: SQLITE_CANTOPEN,
                                               options: quietOptions { $0.readOnly = true })
        #expect(readOnly?.message.contains("createIfMissing") == false, "\(String(describing: readOnly))")
        #expect(readOnly?.message.contains("read-only") == true, "\(String(describing: readOnly))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test("a directory is invalidArgument, read-write or read-only, and stays empty")
    func directoryPath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("folder")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let error = Self.expectSetupFailure(path, .invalidArgument, engineCode: SQLITE_CANTOPEN)
        #expect(error?.message.contains("directory") == true)
        // Read-only, SQLite opens the directory and fails at the first read.
        let readOnly = Self.expectSetupFailure(path, .invalidArgument, engineCode: SQLITE_IOERR,
                                               options: quietOptions { $0.readOnly = true })
        #expect(readOnly?.message.contains("directory") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
    }

    @Test("a file that is not an SQLite database is corrupt and unchanged")
    func notADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("notes.txt")
        let text = Data(String(repeating: "These are notes, not a database.\n", count: 200).utf8)
        try text.write(to: URL(fileURLWithPath: path))
        Self.expectSetupFailure(path, .corrupt, engineCode: SQLITE_NOTADB)
        #expect(Self.bytes(path) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["notes.txt"])
    }

    @Test("a GDBM-like binary file is corrupt and unchanged")
    func binaryFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.gdbm")
        var bytes = [UInt8](repeating: 0, count: 8192)
        bytes.replaceSubrange(0..<4, with: [0x13, 0x57, 0x9A, 0xCE])
        for index in stride(from: 4, to: bytes.count, by: 7) { bytes[index] = UInt8(index % 251) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        Self.expectSetupFailure(path, .corrupt, engineCode: SQLITE_NOTADB)
        #expect(Self.bytes(path) == Data(bytes))
    }

    /// A database written by plain SQL, then damaged by `damage`; setup must fail with
    /// `corrupt` and SQLite's `SQLITE_CORRUPT`, and leave the damaged bytes as they are.
    static func expectDamagedDatabaseRefused(_ damage: (Data) -> Data) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("damaged.sqlite")
        try makeDatabase(path)
        let damaged = damage(try #require(bytes(path)))
        try damaged.write(to: URL(fileURLWithPath: path))
        expectSetupFailure(path, .corrupt, engineCode: SQLITE_CORRUPT)
        #expect(bytes(path) == damaged)
    }

    @Test("a database whose schema page is damaged is corrupt at setup and unchanged")
    func damagedSchema() throws {
        try Self.expectDamagedDatabaseRefused { whole in
            var bytes = whole
            // Page 1 holds the schema after the 100-byte header: scramble its b-tree page header.
            for offset in 100..<112 { bytes[offset] = 0xEE }
            return bytes
        }
    }

    @Test("a damaged data page is corrupt when read, and the file is unchanged")
    func damagedDataPage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("damaged.sqlite")
        try Self.makeDatabase(path)
        let raw = try RawDatabase(path)
        try raw.exec("PRAGMA journal_mode = WAL")
        raw.close()
        var bytes = try #require(Self.bytes(path))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        // Page 2 is the root of the notes table: scramble its b-tree page header.
        for offset in pageSize..<(pageSize + 12) { bytes[offset] = 0xEE }
        try bytes.write(to: URL(fileURLWithPath: path))
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        let error = expectError(.corrupt) { try allItems(store, "notes") }
        #expect(error?.engineCode.map { $0 & 0xFF } == Int(SQLITE_CORRUPT))
        #expect(error?.message.contains(path) == true)
        try store.tearDown()
        #expect(Self.bytes(path) == bytes)
    }

    @Test("a read-only file opened for writing is readOnly and unchanged; read-only mode reads it")
    func readOnlyFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("readonly.sqlite")
        try Self.makeDatabase(path, rows: 3)
        let original = try #require(Self.bytes(path))
        try ReadOnlyFile.makeReadOnly(path)
        defer { ReadOnlyFile.makeWritable(path) }
        let error = Self.expectSetupFailure(path, .readOnly, engineCode: SQLITE_READONLY)
        #expect(error?.message.contains("readOnly: true") == true)
        #expect(Self.bytes(path) == original)

        let reader = SQLiteDataStore(path: path, options: quietOptions { $0.readOnly = true })
        try reader.setup()
        #expect(try allItems(reader, "notes").count == 3)
        let writeError = expectError(.readOnly) {
            try reader.writeSync { try $0.insert(Item(itemType: "notes", id: 9)) }
        }
        #expect(writeError?.message.contains(path) == true)
        try reader.tearDown()
        #expect(Self.bytes(path) == original)
    }

    @Test("a read-only store on a file with a hot journal is readOnly, says why and how to roll it back, and changes nothing")
    func hotJournal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("crashed.sqlite")
        try HotJournal.make(at: path)
        let before = [Self.bytes(path), Self.bytes(path + "-journal")]
        let store = SQLiteDataStore(path: path, options: quietOptions { $0.readOnly = true })
        let error = expectError(.readOnly) {
            try store.setup()
            defer { try? store.tearDown() }
            _ = try allItems(store, "t")
        }
        #expect(error?.engineCode == Int(SQLITE_READONLY | 3 << 8))
        #expect(error?.path == path)
        #expect(error?.message.contains("hot journal, \(path)-journal") == true, "\(String(describing: error))")
        #expect(error?.message.contains("readOnly: true") == false, "\(String(describing: error))")
        #expect([Self.bytes(path), Self.bytes(path + "-journal")] == before)
    }

    @Test("another connection holding the write lock past the busy timeout gives locked")
    func lockedByAnotherConnection() throws {
        try withFileStore(options: quietOptions { $0.busyTimeout = .milliseconds(50) }) { store, path throws in
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: "kept")) }
            let other = try RawDatabase(path)
            try other.exec("BEGIN IMMEDIATE; INSERT INTO Note (persist_id) VALUES ('other');")
            let error = expectError(.locked) {
                try store.writeSync { try $0.insert(Item(itemType: "Note", id: "blocked")) }
            }
            #expect(error?.engineCode.map { $0 & 0xFF } == Int(SQLITE_BUSY))
            #expect(error?.message.contains(path) == true)
            #expect(error?.message.contains("was not free within the busy timeout") == true, "\(error?.message ?? "")")
            // Reads still work, and see neither transaction.
            #expect(try allItems(store, "Note").map(\.id) == ["kept"])
            try other.exec("ROLLBACK;")
            other.close()
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: "later")) }
            #expect(try allItems(store, "Note").map(\.id) == ["kept", "later"])
        }
    }

    @Test("a database locked exclusively by another process gives locked at setup, unchanged")
    func lockedAtSetup() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("exclusive.sqlite")
        try Self.makeDatabase(path, rows: 3)
        let original = try #require(Self.bytes(path))
        let other = try RawDatabase(path)
        try other.exec("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
        Self.expectSetupFailure(path, .locked, engineCode: SQLITE_BUSY, options: quietOptions { $0.busyTimeout = .milliseconds(50) })
        try other.exec("ROLLBACK;")
        other.close()
        #expect(Self.bytes(path) == original)
    }

    @Test("a full database is an io error, the block rolls back and the data is unchanged")
    func diskFull() throws {
        try withFileStore { store, path throws in
            let kept = Item(itemType: "Blob", id: "small", attributes: ["bytes": .bytes([1, 2, 3])])
            try store.writeSync { try $0.insert(kept) }
            // The same error SQLite gives for a full disk: cap the file at its current size.
            try store.withRawHandle { db in
                #expect(sqlite3_exec(db, "PRAGMA max_page_count = 4", nil, nil, nil) == SQLITE_OK)
            }
            let error = expectError(.io) {
                try store.writeSync { accessor throws in
                    try accessor.insert(Item(itemType: "Blob", id: "other"))
                    try accessor.insert(Item(itemType: "Blob", id: "big",
                                             attributes: ["bytes": .bytes(Array(repeating: 7, count: 1 << 20))]))
                }
            }
            #expect(error?.engineCode.map { $0 & 0xFF } == Int(SQLITE_FULL))
            #expect(error?.message.contains(path) == true)
            #expect(error?.items == [ItemReference(itemType: "Blob", id: "big")])
            #expect(try allItems(store, "Blob") == [kept])
            try store.withRawHandle { db in
                #expect(sqlite3_exec(db, "PRAGMA max_page_count = 1073741823", nil, nil, nil) == SQLITE_OK)
            }
            try store.writeSync { try $0.insert(Item(itemType: "Blob", id: "other")) }
            #expect(try allItems(store, "Blob").count == 2)
        }
    }

    @Test("options out of range are invalidArgument at setup")
    func badOptions() {
        let negative = SQLiteDataStore(path: "/nonexistent/x.sqlite", options: quietOptions { $0.busyTimeout = .seconds(-1) })
        expectError(.invalidArgument) { try negative.setup() }
        let pool = SQLiteDataStore(path: "/nonexistent/x.sqlite", options: quietOptions { $0.readerPoolSize = -2 })
        expectError(.invalidArgument) { try pool.setup() }
    }
}
