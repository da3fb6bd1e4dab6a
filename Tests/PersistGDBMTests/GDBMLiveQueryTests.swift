import Foundation
import Persist
import PersistGDBM
import PersistTestSupport
import Testing

@Suite("GDBM live queries end when the file goes")
struct GDBMLiveQueryTests {
    @Test("a live query ends with notFound naming the file when the GDBM file is removed or replaced",
          arguments: ["removed", "replaced"])
    func fileGone(_ how: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("notes.db")
        let store = GDBMDataStore(path: path)
        try store.setup()
        defer { try? store.tearDown() }
        try store.writeSync { try $0.insert(Item(itemType: "Note", id: "a", attributes: ["v": 1])) }
        let stream = store.observe(DataStoreRequest(itemType: "Note"))
        let first = Locked<Bool>(false)
        let ended = Task { () -> (any Error)? in
            do {
                for try await _ in stream { first.withLock { $0 = true } }
                return nil
            } catch {
                return error
            }
        }
        while !first.value { try await Task.sleep(for: .milliseconds(5)) }
        try FileManager.default.removeItem(atPath: path)
        if how == "replaced" { try Data("another file".utf8).write(to: URL(fileURLWithPath: path)) }
        // A live query that missed the change would wait forever: end it after ten seconds.
        let timeout = Task {
            try await Task.sleep(for: .seconds(10))
            ended.cancel()
        }
        let error = await ended.value as? DataStoreError
        timeout.cancel()
        #expect(error?.code == .notFound, "\(String(describing: error))")
        #expect(error?.path == path)
        #expect(error?.message.contains(how == "removed" ? "vanished" : "replaced") == true, "\(String(describing: error))")
    }

    @Test("a write block after the GDBM file was removed or replaced fails with notFound and stores nothing",
          arguments: ["removed", "replaced"])
    func writeAfterFileGone(_ how: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("notes.db")
        let store = GDBMDataStore(path: path)
        try store.setup()
        defer { try? store.tearDown() }
        try expectWriteFailsAfterFile(how, of: store, at: path)
    }
}
