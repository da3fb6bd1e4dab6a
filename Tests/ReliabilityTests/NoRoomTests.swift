import Foundation
import Persist
import PersistTestSupport
import Testing

/// Write blocks that find no room. A worker caps the size of the files it writes (RLIMIT_FSIZE, a
/// file size limit), which needs no root and no small disk: a write past it fails with EFBIG as one
/// on a full disk fails with ENOSPC, and both stores take the same path for either.
@Suite("A write block that finds no room (a full disk, a file size limit)")
struct NoRoomTests {
    /// Runs `fill` on a new store of `kind`: files capped at 200,000 bytes, blocks of three
    /// values of `valueBytes` each. Expects a failed block that is an `io` error with the system's
    /// reason and the advice about room, and returns its line and all the worker's lines.
    static func fill(_ kind: StoreKind, _ path: String, valueBytes: Int = 40_000,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> (failure: String, lines: [String]) {
        let worker = try ChildProcess(["fill", kind.rawValue, path, "200000", String(valueBytes)])
        worker.closeInputAndWait()
        #expect(worker.exitStatus == 0, "the worker failed: \(worker.errorOutput)", sourceLocation: sourceLocation)
        let lines = worker.lines
        #expect(lines.first == "kept", "\(lines)", sourceLocation: sourceLocation)
        let failure = try #require(lines.first { $0.hasPrefix("failed ") }, "\(lines)", sourceLocation: sourceLocation)
        #expect(failure.hasPrefix("failed io ") && failure.contains("File too large"), "\(failure)", sourceLocation: sourceLocation)
        #expect(failure.contains("free some space, or raise the limit"), "\(failure)", sourceLocation: sourceLocation)
        return (failure, lines)
    }

    /// The identifiers of the Blob items `store` holds, sorted.
    static func blobs(in store: any DataStore) throws -> [String] {
        try store.read { accessor in
            try accessor.items(forRequest: DataStoreRequest(itemType: "Blob")).compactMap { item in
                if case .string(let id) = item.id { return id }
                return nil
            }.sorted()
        }
    }

    @Test("SQLite: io with the system's reason and advice about space, the block rolled back, the store usable once there is room")
    func sqlite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("full.sqlite")
        // SQLite says only "disk I/O error" here; the system's reason and what to do come with it.
        let (failure, lines) = try Self.fill(.sqlite, path)
        #expect(lines.contains("1") && lines.contains("rounds 1"), "\(lines)")
        #expect(failure.contains(path), "\(failure)")
        #expect(lines.last == "after ok", "\(lines)")
        let store = StoreKind.sqlite.store(path)
        try store.setup()
        defer { try? store.tearDown() }
        #expect(try Self.blobs(in: store) == ["0-0", "0-1", "0-2"])
        #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Kept")) } == 2)
    }

    @Test("GDBM: a block that fails while it is applied says it is not rolled back, and reopening applies it whole")
    func gdbm() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("full.db")
        let (failure, lines) = try Self.fill(.gdbm, path)
        #expect(lines.contains("1") && lines.contains("rounds 1"), "\(lines)")
        // The journal holds the whole block: the message must not let the user think it is gone
        // and write it again.
        #expect(failure.contains("not rolled back") && failure.contains("do not repeat it"), "\(failure)")
        #expect(failure.contains("free space for one more copy of the file"), "\(failure)")
        #expect(lines.last?.hasPrefix("after failed io") == true, "\(lines)")
        #expect(FileManager.default.fileExists(atPath: path + "-journal"))
        // Reopened with room, the file has the earlier data and the whole failed block, and no journal.
        let store = StoreKind.gdbm.store(path)
        try store.setup()
        #expect(try Self.blobs(in: store) == ["0-0", "0-1", "0-2", "1-0", "1-1", "1-2"])
        #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Kept")).map(\.id) } == [0])
        try store.writeSync { try $0.insert(Item(itemType: "Kept", id: 1)) }
        try store.tearDown()
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(listing == ["full.db"], "\(listing)")
    }

    @Test("GDBM: a block that fails while it is applied ends every live query and read block with its error, never with a part of it")
    func gdbmLiveQuery() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let worker = try ChildProcess(["fill", "gdbm", directory.path("live.db"), "200000", "40000", "observe"])
        // The worker waits for its live query and its reading thread to end after the failed
        // block, then prints "rounds": the block's failure and the live query's end may come in
        // either order, the reader's end after both.
        let ended = worker.waitForLines(5)
        #expect(ended, "the live query or the reading thread did not end after the failed block: \(worker.lines)")
        if !ended { worker.kill() }
        worker.closeInputAndWait()
        let lines = worker.lines
        #expect(Array(lines.prefix(2)) == ["kept", "1"], "\(lines)")
        let ends = lines.dropFirst(2).prefix(2)
        #expect(ends.contains { $0.hasPrefix("failed io ") } && ends.contains("live failed io"), "\(lines)")
        // A read that slipped in between the failed apply and the store's refusal would meet the
        // part GDBM wrote, which GDBM itself reports as a file that needs recovery (corrupt).
        #expect(lines.dropFirst(4).first == "reader failed io", "\(lines)")
    }

    @Test("GDBM: a block whose journal finds no room is rolled back, says what to do, and the store goes on")
    func gdbmJournal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("journal.db")
        // Values of 80,000 bytes: three of them make a journal past the 200,000-byte cap at once.
        let (failure, lines) = try Self.fill(.gdbm, path, valueBytes: 80_000)
        #expect(failure.contains("could not write the journal"), "\(failure)")
        #expect(lines.contains("rounds 0") && lines.last == "after ok", "\(lines)")
        let store = StoreKind.gdbm.store(path)
        try store.setup()
        defer { try? store.tearDown() }
        #expect(try Self.blobs(in: store).isEmpty)
        #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Kept")) } == 2)
    }
}
