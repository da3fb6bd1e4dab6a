import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

@Suite("A writable file in a folder the process may not write in")
struct UnwritableFolderTests {
    @Test("write blocks, and opening with a journal to replay or discard, give readOnly naming the file; the store stays usable")
    func journalCannotBeWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let folder = directory.path("locked")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let path = folder + "/data.db"
        let journal = try JournalTests.interruptedCommit(path)
        try ReadOnlyFile.makeReadOnly(folder)
        defer { ReadOnlyFile.makeWritable(folder) }
        let store = JournalTests.store(path)
        try store.setup()
        let error = expectError(.readOnly) {
            try store.writeSync { try $0.insert(Item(itemType: "Note", id: "new", attributes: [:])) }
        }
        #expect(error?.path == path && error?.message.contains(path + "-journal") == true)
        #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")).map(\.id) } == ["kept"])
        try store.tearDown()

        ReadOnlyFile.makeWritable(folder)
        for contents in [journal, Array(journal.dropLast())] {
            try Data(contents).write(to: URL(fileURLWithPath: path + "-journal"))
            try ReadOnlyFile.makeReadOnly(folder)
            let refused = expectError(.readOnly) { try JournalTests.store(path).setup() }
            #expect(refused?.path == path)
            ReadOnlyFile.makeWritable(folder)
        }
    }
}
