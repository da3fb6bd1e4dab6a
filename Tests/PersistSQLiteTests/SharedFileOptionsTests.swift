import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

/// The options for databases that other programs keep: their journal mode kept, or the file read
/// as it is, with nothing created beside it.
@Suite("SQLiteDataStore options for files other programs use")
struct SharedFileOptionsTests {
    static func journalMode(_ path: String) throws -> [[RawValue]] {
        let database = try RawDatabase(path)
        defer { database.close() }
        return try database.rows("PRAGMA journal_mode")
    }

    @Test("keepsJournalMode leaves a rollback-journal database in its mode through writes; without it, it turns WAL")
    func keepsJournalMode() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for keeps in [true, false] {
            let path = directory.path("legacy-\(keeps).sqlite")
            let legacy = try RawDatabase(path)
            try legacy.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'a');")
            legacy.close()
            let store = SQLiteDataStore(path: path, options: quietOptions { $0.keepsJournalMode = keeps })
            try store.setup()
            try store.writeSync { try $0.insert(Item(itemType: "notes", id: 2, attributes: ["body": "b"])) }
            #expect(try allItems(store, "notes").count == 2)
            try store.tearDown()
            #expect(try Self.journalMode(path) == [[.text(keeps ? "delete" : "wal")]])
        }
        let new = SQLiteDataStore(path: directory.path("new.sqlite"), options: quietOptions { $0.keepsJournalMode = true })
        try new.setup()
        try new.writeSync { try $0.insert(Item(itemType: "Note", id: 1)) }
        try new.tearDown()
        #expect(try Self.journalMode(directory.path("new.sqlite")) == [[.text("delete")]])
    }

    @Test("readsUnchangingFile reads a WAL database with nothing created beside it; without readOnly it is refused")
    func readsUnchangingFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("archive.sqlite")
        let writer = SQLiteDataStore(path: path, options: quietOptions())
        try writer.setup()
        try writer.writeSync { try $0.insert(Item(itemType: "Note", id: 1, attributes: ["text": "kept"])) }
        try writer.tearDown()
        let before = FileManager.default.contents(atPath: path)
        func companions() -> [String] {
            SQLiteDataStore.companionSuffixes.filter { FileManager.default.fileExists(atPath: path + $0) }
        }
        #expect(companions().isEmpty)
        for unchanging in [true, false] {
            let store = SQLiteDataStore(path: path, options: quietOptions {
                $0.readOnly = true
                $0.readsUnchangingFile = unchanging
            })
            try store.setup()
            #expect(try allItems(store, "Note") == [Item(itemType: "Note", id: 1, attributes: ["text": "kept"])])
            // An ordinary read-only store opens the write-ahead log's index beside the file.
            #expect(companions().isEmpty == unchanging, "\(companions())")
            try store.tearDown()
        }
        #expect(FileManager.default.contents(atPath: path) == before)
        let writable = SQLiteDataStore(path: path, options: quietOptions { $0.readsUnchangingFile = true })
        expectError(.invalidArgument) { try writable.setup() }
    }
}
