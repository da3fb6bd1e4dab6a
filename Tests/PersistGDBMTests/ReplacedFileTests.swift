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

    @Test("a symbolic link that comes to lead to another file: the next write block is notFound and stores nothing in either file")
    func retargetedLink() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (first, second, link) = (directory.path("first.db"), directory.path("second.db"), directory.path("current.db"))
        for path in [first, second] {
            let store = JournalTests.store(path)
            try store.setup()
            try store.tearDown()
        }
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "first.db")
        let store = JournalTests.store(link)
        try store.setup()
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "second.db")
        let error = expectError(.notFound) { try store.writeSync { try $0.insert(Item(itemType: "Note", id: "n", attributes: [:])) } }
        #expect(error?.path == link)
        try store.tearDown()
        #expect(try JournalTests.ids(first) == [] && JournalTests.ids(second) == [])
    }
}
