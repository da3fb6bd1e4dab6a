import CGDBM
import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

/// The plainer bad files (missing, empty, random, truncated, of another kind, of a newer format) are
/// in ReliabilityTests' bad-input suite.
@Suite("Bad files give a clear error, name the file, and stay unchanged")
struct BadFileTests {
    static func store(_ path: String, readOnly: Bool = false, create: Bool = true,
                      layout: GDBMDataStore.Options.Layout = .native) -> GDBMDataStore {
        GDBMDataStore(path: path, options: .init(readOnly: readOnly, createIfMissing: create, layout: layout, logger: .quiet))
    }

    /// Opens `path` read-write and read-only; both must fail with `code`, name the file, and leave
    /// it (and its directory) exactly as it was.
    static func expectRefused(_ path: String, _ code: DataStoreError.Code, engineCode: Int32? = nil,
                              mentioning text: String? = nil, layout: GDBMDataStore.Options.Layout = .native,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let before = fileBytes(path)
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        for readOnly in [false, true] {
            let error = expectError(code, sourceLocation: sourceLocation) {
                try store(path, readOnly: readOnly, layout: layout).setup()
            }
            #expect(error?.path == path, sourceLocation: sourceLocation)
            #expect(error?.message.contains(path) == true, "the message does not name the file: \(String(describing: error))",
                    sourceLocation: sourceLocation)
            if let engineCode { #expect(error?.engineCode == Int(engineCode), sourceLocation: sourceLocation) }
            if let text {
                #expect(error?.message.contains(text) == true, "expected \(text) in \(String(describing: error))",
                        sourceLocation: sourceLocation)
            }
        }
        #expect(fileBytes(path) == before, "the file changed", sourceLocation: sourceLocation)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == listing,
                "files appeared or vanished", sourceLocation: sourceLocation)
    }

    /// A native store at `path` holding a few items, closed again.
    static func makeNativeFile(_ path: String, items: Int = 50) throws {
        let store = store(path)
        try store.setup()
        try store.writeSync { accessor in
            for index in 0..<items {
                try accessor.insert(Item(itemType: "Note", id: .int(Int64(index)), attributes: ["text": .string("note \(index)")]))
            }
        }
        try store.tearDown()
    }

    @Test("a GDBM file truncated after its directory: corrupt when the missing part is read")
    func truncatedBuckets() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("truncated.db")
        try Self.makeNativeFile(path, items: 2000)
        let size = try #require(fileBytes(path)?.count)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        let before = fileBytes(path)
        for readOnly in [false, true] {
            let store = Self.store(path, readOnly: readOnly)
            let error = expectError(.corrupt) {
                try store.setup()
                defer { try? store.tearDown() }
                return try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) }
            }
            #expect(error?.path == path)
            #expect(error?.message.contains(path) == true)
        }
        #expect(fileBytes(path) == before)
    }

    @Test("a file that needs recovery: corrupt with GDBM_NEED_RECOVERY; recover(path:) repairs it")
    func needsRecovery() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("crashed.db")
        try Self.makeNativeFile(path)
        // Bytes past the header's end of file are what a writer that died mid-update leaves.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0xAB, count: 100))
        try handle.close()
        try Self.expectRefused(path, .corrupt, engineCode: Int32(GDBM_NEED_RECOVERY), mentioning: "recover")

        let report = try GDBMDataStore.recover(path: path, logger: .quiet)
        #expect(report.recoveredKeys == 51)   // 50 notes and the format record
        #expect(report.failedKeys == 0 && report.failedBuckets == 0)
        let backup = try #require(report.backupPath)
        #expect(FileManager.default.fileExists(atPath: backup))
        let store = Self.store(path)
        try store.setup()
        #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Note")) } == 50)
        try store.tearDown()
    }

    @Test("recover(path:) refuses missing files, non-GDBM files and files this process holds open")
    func recoverRefusals() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.db")
        expectError(.notFound) { try GDBMDataStore.recover(path: path) }
        try Data(repeating: 7, count: 3000).write(to: URL(fileURLWithPath: path))
        expectError(.corrupt) { try GDBMDataStore.recover(path: path) }
        // An empty file is no GDBM file, as setup() says too; a folder is no file at all.
        try Data().write(to: URL(fileURLWithPath: path))
        expectError(.corrupt) { try GDBMDataStore.recover(path: path) }
        expectError(.invalidArgument) { try GDBMDataStore.recover(path: directory.path("")) }
        try FileManager.default.removeItem(atPath: path)
        let store = Self.store(path)
        try store.setup()
        expectError(.locked) { try GDBMDataStore.recover(path: path) }
        expectError(.locked) { try GDBMDataStore.deleteFiles(atPath: path) }
        try store.tearDown()
        try GDBMDataStore.deleteFiles(atPath: path)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("recover(path:) without room for the rebuilt file: io with the system's reason, the file as it was, nothing left beside it")
    func recoverWithoutRoom() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.db")
        try StoreFiles.gdbm(path, holding: StoreFiles.items(count: 2000))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        // A worker whose files may not grow past 100,000 bytes, as on a disk with that much room.
        let worker = try ChildProcess(["gdbm-recover", path, "100000"])
        worker.closeInputAndWait()
        #expect(worker.exitStatus == 0, "the worker failed: \(worker.errorOutput)")
        let line = worker.lines.first ?? ""
        #expect(line.hasPrefix("failed io ") && line.contains("File too large"), "\(worker.lines)")
        #expect(line.contains("free some space, or raise the limit"), "\(line)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        // GDBM leaves its half-built temporary file (data.db.XXXXXX) behind on failure.
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(listing == ["data.db"], "\(listing)")
    }

    @Test("damaged records give corrupt naming the item and the file; other items stay readable")
    func damagedRecord() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("damaged.db")
        try Self.makeNativeFile(path, items: 3)
        let key = try GDBMStorageFormat.encodeKey(itemType: "Note", id: 1)
        try ForeignFile.store(path, key: key, value: [0x01, 0x01, 0x01, 0x61, 0x05, 0x05, 0xFF])
        let futureKey = try GDBMStorageFormat.encodeKey(itemType: "Note", id: 2)
        try ForeignFile.store(path, key: futureKey, value: [0x07, 0x00])
        let store = Self.store(path)
        try store.setup()
        defer { try? store.tearDown() }
        let reference = ItemReference(itemType: "Note", id: 1)
        for error in [
            expectError(.corrupt) { try store.read { try $0.item(ofType: "Note", id: 1) } },
            expectError(.corrupt) { try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) } },
        ] {
            #expect(error?.items == [reference] || error?.items == [ItemReference(itemType: "Note", id: 2)])
            #expect(error?.message.contains(path) == true)
        }
        let future = expectError(.unsupported) { try store.read { try $0.item(ofType: "Note", id: 2) } }
        #expect(future?.items == [ItemReference(itemType: "Note", id: 2)])
        #expect(try store.read { try $0.item(ofType: "Note", id: 0)?["text"] } == "note 0")
        // Counting without a filter reads no record, so it still works.
        #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Note")) } == 3)
    }

    @Test("a path under a regular file is notFound, opened for reading or for writing, and nothing is made")
    func pathUnderAFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("file.txt")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        for readOnly in [true, false] {
            let store = GDBMDataStore(path: file + "/data.db", options: .init(readOnly: readOnly, logger: .quiet))
            let error = expectError(.notFound) { try store.setup() }
            #expect(error?.message.contains("is a file, not a folder") == true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("x".utf8))
    }

    @Test("a symbolic link to a missing file gets the file made where it leads, also after deleteFiles through the link")
    func danglingLink() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let real = directory.path("real.db")
        let link = directory.path("link.db")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.db")
        for round in 0..<2 {
            let store = Self.store(link)
            try store.setup()
            try store.writeSync { accessor in try accessor.insert(Item(itemType: "Note", id: .int(Int64(round)))) }
            try store.tearDown()
            #expect(FileManager.default.fileExists(atPath: real), "round \(round)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.db")
            // Deleting through the link removes the file it leads to and keeps the link.
            try GDBMDataStore.deleteFiles(atPath: link)
            #expect(!FileManager.default.fileExists(atPath: real))
        }
    }

    @Test("creating a file removes what killed creations of it left behind, and keeps what a running one uses")
    func staleCreations() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("notes.db")
        // A process that has ended: its creation file is a leftover.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let stale = path + ".creating-\(ended.processIdentifier)-7"
        let running = path + ".creating-\(getpid())-8"
        for leftover in [stale, running] { try Data([1, 2, 3]).write(to: URL(fileURLWithPath: leftover)) }
        let store = GDBMDataStore(path: path)
        try store.setup()
        try store.tearDown()
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: running))
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
