import Dispatch
import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

@Suite("Files held by another process or store give locked, never a hang")
struct LockingTests {
    static func store(_ path: String, readOnly: Bool = false, lockWait: Duration = .zero) -> GDBMDataStore {
        GDBMDataStore(path: path, options: .init(readOnly: readOnly, lockWait: lockWait, logger: .quiet))
    }

    /// A native file with one item, and a worker process holding it open.
    static func holdFile(_ path: String, readOnly: Bool) throws -> ChildProcess {
        let store = store(path)
        try store.setup()
        try store.writeSync { try $0.insert(Item(itemType: "Note", id: "n", attributes: ["v": 1])) }
        try store.tearDown()
        let holder = try ChildProcess(["gdbm-hold", path, readOnly ? "read-only" : "read-write"])
        guard holder.waitForLines(1), holder.lines.first == "ready" else {
            holder.kill()
            throw DataStoreError(.io, "the holder did not start: \(holder.errorOutput)")
        }
        return holder
    }

    @Test("a file another process writes: locked at once, and after the lock wait runs out")
    func heldByWriter() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("held.db")
        let holder = try Self.holdFile(path, readOnly: false)
        let before = fileBytes(path)
        for store in [Self.store(path), Self.store(path, readOnly: true), Self.store(path, lockWait: .milliseconds(200))] {
            let error = expectError(.locked) { try store.setup() }
            #expect(error?.path == path && error?.message.contains(path) == true)
            #expect(error?.engineCode != nil)
            // A store that waited is told to wait longer, not to wait.
            let waited = store.options.lockWait > .zero
            #expect(error?.message.contains(waited ? "give the store a longer lock wait" : "give the store a lock wait") == true,
                    "\(error?.message ?? "")")
        }
        #expect(fileBytes(path) == before)
        holder.closeInputAndWait()
        let store = Self.store(path)
        try store.setup()
        #expect(try store.read { try $0.item(ofType: "Note", id: "n")?["v"] } == 1)
        try store.tearDown()
    }

    @Test("a file another process reads: writers get locked, readers share it")
    func heldByReader() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("shared.db")
        let holder = try Self.holdFile(path, readOnly: true)
        defer { holder.closeInputAndWait() }
        expectError(.locked) { try Self.store(path).setup() }
        let reader = Self.store(path, readOnly: true)
        try reader.setup()
        #expect(try reader.read { try $0.item(ofType: "Note", id: "n")?["v"] } == 1)
        try reader.tearDown()
    }

    @Test("with a lock wait, setup succeeds once the other process lets go, and blocks no other call meanwhile")
    func waitsForRelease() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("released.db")
        let holder = try Self.holdFile(path, readOnly: false)
        let store = Self.store(path, lockWait: .seconds(60))
        let opened = DispatchSemaphore(value: 0)
        let failure = Locked<(any Error)?>(nil)
        DispatchQueue.global().async {
            do { try store.setup() } catch { failure.withLock { $0 = error } }
            opened.signal()
        }
        // Let setup start waiting before the holder lets go (the test passes either way).
        usleep(200_000)
        // Meanwhile the store answers at once (no lock is held while setup waits): a read is
        // refused as misuse instead of waiting for the other process.
        let answered = DispatchSemaphore(value: 0)
        let readError = Locked<DataStoreError?>(nil)
        DispatchQueue.global().async {
            do { _ = try store.read { _ in 1 } } catch { readError.withLock { $0 = error as? DataStoreError } }
            answered.signal()
        }
        let answeredInTime = answered.wait(timeout: .now() + 30) == .success
        #expect(answeredInTime, "a read waited for setup, which waits for another process's lock")
        #expect(readError.value?.code == .misuse)
        holder.closeInputAndWait()
        if !answeredInTime { answered.wait() }
        opened.wait()
        #expect(failure.withLock { $0 } == nil)
        #expect(try store.read { try $0.item(ofType: "Note", id: "n")?["v"] } == 1)
        try store.tearDown()
    }

    @Test("two stores in one process never both write a file")
    func sameProcess() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("twice.db")
        let writer = Self.store(path)
        try writer.setup()
        let error = expectError(.locked) { try Self.store(path).setup() }
        #expect(error?.message.contains("this process") == true)
        let waited = expectError(.locked) { try Self.store(path, lockWait: .milliseconds(20)).setup() }
        #expect(waited?.message.contains("this process") == true && waited?.message.contains("another process") == false,
                "\(waited?.message ?? "")")
        expectError(.locked) { try Self.store(path, readOnly: true).setup() }
        let aliased = directory.url.appendingPathComponent(".").appendingPathComponent("twice.db").path
        expectError(.locked) { try Self.store(aliased).setup() }
        try writer.tearDown()

        let first = Self.store(path, readOnly: true)
        let second = Self.store(path, readOnly: true)
        try first.setup()
        try second.setup()
        expectError(.locked) { try Self.store(path).setup() }
        try first.tearDown()
        try second.tearDown()
        try writer.setup()
        try writer.tearDown()
    }

    @Test("names differing only in Unicode normalization are two files: both open for writing, and neither touches the other's replay copy")
    func normalizationForms() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let composed = directory.path("caf\u{E9}.db")
        let decomposed = directory.path("cafe\u{301}.db")
        // Another process replaying a journal into a copy of the decomposed file.
        let replayCopy = decomposed + ".replay-1-1"
        try Data([1]).write(to: URL(fileURLWithPath: replayCopy))
        let first = Self.store(composed)
        try first.setup()
        #expect(FileManager.default.fileExists(atPath: replayCopy))
        try first.writeSync { try $0.insert(Item(itemType: "Note", id: "composed", attributes: [:])) }
        let second = Self.store(decomposed)
        try second.setup()
        try second.writeSync { try $0.insert(Item(itemType: "Note", id: "decomposed", attributes: [:])) }
        try second.tearDown()
        try GDBMDataStore.deleteFiles(atPath: decomposed)
        #expect(try first.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")).map(\.id) } == ["composed"])
        try first.tearDown()
    }

    @Test("tearDown gives the file up even when an accessor escaped its block")
    func escapedAccessor() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("escaped.db")
        let store = Self.store(path)
        try store.setup()
        let escaped = try store.read { accessor in accessor }
        try store.tearDown()
        let next = Self.store(path)
        try next.setup()
        expectError(.misuse) { try escaped.items(forRequest: DataStoreRequest(itemType: "Note")) }
        try next.tearDown()
        withExtendedLifetime(escaped) {}
    }

    @Test("a read-only store refuses writes with readOnly and leaves the file alone")
    func readOnlyWrites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("readonly.db")
        let writer = Self.store(path)
        try writer.setup()
        try writer.writeSync { try $0.insert(Item(itemType: "Note", id: "n")) }
        try writer.tearDown()
        let before = fileBytes(path)
        let store = Self.store(path, readOnly: true)
        try store.setup()
        expectError(.readOnly) { try store.writeSync { try $0.insert(Item(itemType: "Note", id: "m")) } }
        expectError(.readOnly) { try store.writeSync { try $0.deleteAllItems(ofType: "Note") } }
        #expect(try store.writeSync { accessor in try accessor.countItems(forRequest: DataStoreRequest(itemType: "Note")) } == 1)
        try store.tearDown()
        #expect(fileBytes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }

    @Test("deleteFiles of a file another process holds open is locked, and deletes nothing")
    func deleteWhileHeldElsewhere() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for readOnly in [false, true] {
            let path = directory.path(readOnly ? "read.db" : "written.db")
            let holder = try Self.holdFile(path, readOnly: readOnly)
            let error = expectError(.locked) { try GDBMDataStore.deleteFiles(atPath: path) }
            #expect(error?.message.contains("another process") == true)
            #expect(FileManager.default.fileExists(atPath: path))
            holder.closeInputAndWait()
            try GDBMDataStore.deleteFiles(atPath: path)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("recover of a file another process holds open is locked, says to close it there, and changes nothing")
    func recoverWhileHeldElsewhere() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for readOnly in [false, true] {
            let path = directory.path(readOnly ? "read.db" : "written.db")
            let holder = try Self.holdFile(path, readOnly: readOnly)
            let before = fileBytes(path)
            let error = expectError(.locked) { try GDBMDataStore.recover(path: path) }
            #expect(error?.path == path && error?.engineCode != nil)
            // recover(path:) has no lock wait to give.
            #expect(error?.message.contains("open in another process") == true && error?.message.contains("lock wait") == false,
                    "\(error?.message ?? "")")
            holder.closeInputAndWait()
            #expect(fileBytes(path) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix(readOnly ? "read" : "written") }
                == [readOnly ? "read.db" : "written.db"])
        }
    }
}
