import CSQLite
import Foundation
import Persist
import PersistConformance
import PersistSQLite
import Testing
import PersistTestSupport

/// Options and the in-memory variant.
@Suite("SQLiteDataStore options")
struct OptionsTests {
    static func pragma(_ store: SQLiteDataStore, _ name: String) throws -> [[RawValue]] {
        try store.withRawHandle { db in try RawDatabase(borrowing: db).rows("PRAGMA \(name)") }
    }

    @Test("durability sets the synchronous level of the WAL database")
    func durability() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (durability, level) in [(Durability.normal, Int64(1)), (.full, 2)] {
            let store = SQLiteDataStore(path: directory.path("\(durability).sqlite"),
                                        options: quietOptions { $0.durability = durability })
            try store.setup()
            #expect(try Self.pragma(store, "journal_mode") == [[.text("wal")]])
            #expect(try Self.pragma(store, "synchronous") == [[.integer(level)]])
            try store.tearDown()
        }
    }

    @Test("read-only mode reads a WAL database written earlier, writes nothing and refuses writes")
    func readOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("ro.sqlite")
        let writer = SQLiteDataStore(path: path, options: quietOptions())
        try writer.setup()
        try writer.writeSync { try $0.insert(Item(itemType: "Note", id: 1, attributes: ["text": "kept"])) }
        try writer.tearDown()
        let before = FileManager.default.contents(atPath: path)

        let store = SQLiteDataStore(path: path, options: quietOptions { $0.readOnly = true })
        try store.setup()
        #expect(try allItems(store, "Note") == [Item(itemType: "Note", id: 1, attributes: ["text": "kept"])])
        expectError(.readOnly) { try store.writeSync { try $0.insert(Item(itemType: "Note", id: 2)) } }
        try store.tearDown()
        #expect(FileManager.default.contents(atPath: path) == before)
        let missing = SQLiteDataStore(path: directory.path("absent.sqlite"), options: quietOptions { $0.readOnly = true })
        expectError(.notFound) { try missing.setup() }
        #expect(!FileManager.default.fileExists(atPath: directory.path("absent.sqlite")))
    }

    @Test("a pool of no idle readers still serves reads")
    func emptyPool() throws {
        try withFileStore(options: quietOptions { $0.readerPoolSize = 0 }) { store, _ throws in
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: 1)) }
            for _ in 0..<3 { #expect(try allItems(store, "Note").count == 1) }
        }
    }

    @Test("in-memory stores are private, keep data across tearDown and setup, and leave no files")
    func inMemory() throws {
        var first: SQLiteDataStore? = SQLiteDataStore.inMemory(options: quietOptions())
        let second = SQLiteDataStore.inMemory(options: quietOptions())
        let path = try #require(first?.path)
        #expect(path != second.path)
        try first?.setup()
        try second.setup()
        try first?.writeSync { try $0.insert(Item(itemType: "Note", id: 1)) }
        #expect(try allItems(second, "Note").isEmpty)
        try first?.tearDown()
        try first?.setup()
        #expect(try first.map { try allItems($0, "Note").count } == 1)
        #expect(try first.map { try Self.pragma($0, "synchronous") } == [[.integer(0)]])
        try first?.tearDown()
        #expect(FileManager.default.fileExists(atPath: path))
        first = nil
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        try second.tearDown()
    }

    @Test("removeDatabase deletes the database and its side files")
    func removeDatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("gone.sqlite")
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        try store.writeSync { try $0.insert(Item(itemType: "Note", id: 1)) }
        try store.tearDown()
        try SQLiteDataStore.deleteFiles(atPath: path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        try SQLiteDataStore.deleteFiles(atPath: path)
    }

    @Test("deleteFiles of a directory is invalidArgument and deletes nothing in it")
    func deleteFilesOfDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.path("data")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder + "/keep.txt", contents: Data([1])))
        let error = expectError(.invalidArgument) { try SQLiteDataStore.deleteFiles(atPath: folder) }
        #expect(error?.path == folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["keep.txt"])
    }

    @Test("deleteFiles through a symbolic link deletes the database it leads to and the files beside it; the link stays")
    func deleteFilesThroughLink() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("real.sqlite")
        let link = directory.path("link.sqlite")
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        try store.writeSync { try $0.insert(Item(itemType: "Note", id: 1)) }
        try store.tearDown()
        #expect(FileManager.default.createFile(atPath: path + SQLiteDataStore.logSuffix, contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        try SQLiteDataStore.deleteFiles(atPath: link)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["link.sqlite"])
        try SQLiteDataStore.deleteFiles(atPath: link)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["link.sqlite"])
    }
}
