import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

@Suite("A file that several users write")
struct SharedFileTests {
    @Test("an empty journal another user left, which this user may not write, does not stop write blocks")
    func emptyJournalOfAnotherUser() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("shared.db")
        let store = JournalTests.store(path)
        try store.setup()
        try store.tearDown()
        // Left by a process killed between two commits; its owner's umask took write away from the others.
        try Data().write(to: URL(fileURLWithPath: path + "-journal"))
        #expect(chmod(path, 0o666) == 0 && chmod(directory.url.path, 0o777) == 0)
        guard getuid() == 0 else {
            // This user may not write the journal either.
            #expect(chmod(path + "-journal", 0o444) == 0)
            let store = JournalTests.store(path)
            try store.setup()
            try store.writeSync { try $0.insert(Item(itemType: "Ticket", id: 1, attributes: [:])) }
            try store.tearDown()
            return
        }
        // As root, whom permissions do not stop, another user writes: a worker run as nobody. It
        // runs from a copy in the shared folder, since the build folder may be in one that nobody
        // cannot enter (such as /root).
        #expect(chmod(path + "-journal", 0o644) == 0)
        let workerCopy = directory.path("persist-crash-worker")
        try FileManager.default.copyItem(atPath: ChildProcess.productsDirectory.appendingPathComponent("persist-crash-worker").path,
                                         toPath: workerCopy)
        #expect(chmod(workerCopy, 0o755) == 0)
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        worker.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", workerCopy, "ids", "gdbm", path, "1"]
        let errors = Pipe()
        worker.standardOutput = FileHandle.nullDevice
        worker.standardError = errors
        try worker.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        worker.waitUntilExit()
        #expect(worker.terminationStatus == 0, "\(message)")
        let tickets = JournalTests.store(path)
        try tickets.setup()
        defer { try? tickets.tearDown() }
        #expect(try tickets.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "Ticket")) } == 1)
    }
}
