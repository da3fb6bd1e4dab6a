import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

@Suite("Opening replays a complete journal and discards a torn one")
struct JournalTests {
    static func store(_ path: String, readOnly: Bool = false) -> GDBMDataStore {
        GDBMDataStore(path: path, options: .init(readOnly: readOnly, logger: .quiet))
    }

    /// A native file holding Note/"kept", closed, and the journal of a block that adds
    /// Note/"added" and deletes Note/"kept".
    static func interruptedCommit(_ path: String) throws -> [UInt8] {
        let store = store(path)
        try store.setup()
        try store.writeSync { try $0.insert(Item(itemType: "Note", id: "kept", attributes: ["v": 1])) }
        try store.tearDown()
        return GDBMStorageFormat.encodeJournal([
            .store(key: try GDBMStorageFormat.encodeKey(itemType: "Note", id: "added"),
                   value: try GDBMStorageFormat.encodeRecord(["v": 2])),
            .delete(key: try GDBMStorageFormat.encodeKey(itemType: "Note", id: "kept")),
        ])
    }

    static func ids(_ path: String) throws -> [ItemID] {
        let store = store(path)
        try store.setup()
        defer { try? store.tearDown() }
        return try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")).map(\.id) }
    }

    @Test("GDBM's datum limit: a key or record over 2 GiB − 1 bytes is refused with invalidArgument naming the file")
    func datumLimit() throws {
        #expect(throws: Never.self) { try GDBMStorageFormat.checkDatumSize(Int(Int32.max), path: "a.gdbm") }
        let error = expectError(.invalidArgument) { try GDBMStorageFormat.checkDatumSize(Int(Int32.max) + 1, path: "a.gdbm") }
        #expect(error?.message.contains("2 GiB") == true && error?.path == "a.gdbm")
    }

    @Test("a complete journal is replayed on open and removed")
    func replaysComplete() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.db")
        let journal = try Self.interruptedCommit(path)
        try Data(journal).write(to: URL(fileURLWithPath: path + "-journal"))
        #expect(try Self.ids(path) == ["added"])
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["data.db"])
    }

    @Test("the journal of a removed file is not replayed into the new, empty file a store creates at its path")
    func orphanJournal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.db")
        let journal = try Self.interruptedCommit(path)
        // The file is removed and its journal stays (a deleteFiles cut short, or rm data.db).
        try FileManager.default.removeItem(atPath: path)
        try Data(journal).write(to: URL(fileURLWithPath: path + "-journal"))
        #expect(try Self.ids(path) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["data.db"])
    }

    @Test("replaying keeps the file's permissions, whatever the process's umask")
    func replayKeepsPermissions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.db")
        let journal = try Self.interruptedCommit(path)
        #expect(chmod(path, 0o664) == 0)
        try Data(journal).write(to: URL(fileURLWithPath: path + "-journal"))
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let mask = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
            .flatMap { Int($0.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8) }
        #expect(mask.map { $0 & 0o020 != 0 } == true, "the test needs a umask that takes group write away")
        #expect(try Self.ids(path) == ["added"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o664)
    }

    @Test("through a symbolic link, the journal lives beside the real file and the link stays a link")
    func symbolicLink() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.db")
        let link = directory.path("link.db")
        let journal = try Self.interruptedCommit(path)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        try Data(journal).write(to: URL(fileURLWithPath: path + "-journal"))
        #expect(try Self.ids(link) == ["added"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["data.db", "link.db"])
        let store = Self.store(link)
        try store.setup()
        try store.writeSync { try $0.insert(Item(itemType: "Note", id: "via link")) }
        expectError(.locked) { try Self.store(path).setup() }
        try store.tearDown()
        #expect(try Self.ids(path) == ["added", "via link"])
    }

    @Test("every torn prefix of a journal, and a journal with a flipped byte, is discarded")
    func discardsTorn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.db")
        let journal = try Self.interruptedCommit(path)
        let before = fileBytes(path)
        var damaged = journal
        damaged[journal.count / 2] ^= 0x40
        for torn in stride(from: 1, to: journal.count, by: 7).map({ Array(journal.prefix($0)) }) + [damaged] {
            try Data(torn).write(to: URL(fileURLWithPath: path + "-journal"))
            #expect(try Self.ids(path) == ["kept"])
            #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
            #expect(fileBytes(path) == before)
        }
    }

    @Test("read-only opening with an unfinished commit gives readOnly and changes nothing")
    func readOnlyPending() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.db")
        let journal = try Self.interruptedCommit(path)
        try Data(journal).write(to: URL(fileURLWithPath: path + "-journal"))
        let before = fileBytes(path)
        let error = expectError(.readOnly) { try Self.store(path, readOnly: true).setup() }
        #expect(error?.message.contains(path) == true && error?.message.contains("unfinished commit") == true)
        #expect(fileBytes(path) == before)
        #expect(fileBytes(path + "-journal") == journal)
        #expect(try Self.ids(path) == ["added"])
        let reader = Self.store(path, readOnly: true)
        try reader.setup()
        #expect(try reader.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")).map(\.id) } == ["added"])
        try reader.tearDown()
    }

    @Test("read-only opening ignores a torn journal")
    func readOnlyTorn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.db")
        let journal = try Self.interruptedCommit(path)
        try Data(journal.dropLast(3)).write(to: URL(fileURLWithPath: path + "-journal"))
        let reader = Self.store(path, readOnly: true)
        try reader.setup()
        #expect(try reader.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")).map(\.id) } == ["kept"])
        try reader.tearDown()
    }

    @Test("a journal written by a newer format version gives unsupported and is kept")
    func newerJournal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.db")
        var journal = try Self.interruptedCommit(path)
        journal[8] = 2
        journal.removeLast(4)
        let checksum = crc32(journal)
        journal += [UInt8(checksum >> 24), UInt8(truncatingIfNeeded: checksum >> 16), UInt8(truncatingIfNeeded: checksum >> 8),
                    UInt8(truncatingIfNeeded: checksum)]
        try Data(journal).write(to: URL(fileURLWithPath: path + "-journal"))
        let error = expectError(.unsupported) { try Self.store(path).setup() }
        #expect(error?.message.contains("newer") == true)
        #expect(fileBytes(path + "-journal") == journal)
    }

    @Test("a newer version's journal laid out differently (another header, another checksum) is kept, not taken for torn")
    func newerJournalOfAnotherLayout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.db")
        _ = try Self.interruptedCommit(path)
        // The magic bytes and version 2, then what a later layout might hold: fields this version
        // does not know, and a checksum of another width.
        let journal = Array("PGDBJRNL".utf8) + [2] + [UInt8](repeating: 7, count: 29)
        try Data(journal).write(to: URL(fileURLWithPath: path + "-journal"))
        let error = expectError(.unsupported) { try Self.store(path).setup() }
        #expect(error?.message.contains("newer") == true)
        #expect(fileBytes(path + "-journal") == journal)
    }

    @Test("no journal is left beside the file after commits and a clean close")
    func noLeftovers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.db")
        let store = Self.store(path)
        try store.setup()
        for index in 0..<5 {
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: .int(Int64(index)))) }
            #expect(fileBytes(path + "-journal") == [])
        }
        try store.tearDown()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["data.db"])
    }

    /// CRC-32 (IEEE), as the journal uses.
    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
