import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

@Suite("A file replaced while a store has it open")
struct ReplacedFileTests {
    @Test("tearing the old store down leaves the journal of the store that now has the file at the path")
    func keepsNewFilesJournal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("data.db")
        let old = JournalTests.store(path)
        try old.setup()
        try old.writeSync { try $0.insert(Item(itemType: "Note", id: "old", attributes: [:])) }
        // Another file takes the path, and another process writes it: between its commits its
        // journal is an empty file it keeps open.
        let replacement = directory.path("replacement.db")
        let maker = JournalTests.store(replacement)
        try maker.setup()
        try maker.tearDown()
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: replacement, toPath: path)
        let holder = try ChildProcess(["gdbm-hold", path, "read-write"])
        defer { holder.kill() }
        #expect(holder.waitForLines(1) && holder.lines.first == "ready")
        try Data().write(to: URL(fileURLWithPath: path + "-journal"))
        expectError(.notFound) { try old.writeSync { try $0.insert(Item(itemType: "Note", id: "lost", attributes: [:])) } }
        try old.tearDown()
        #expect(FileManager.default.fileExists(atPath: path + "-journal"))
    }
}
