import Foundation
import Persist
import PersistSQLite
import PersistTestSupport
import Testing

/// Store paths are file names, taken literally: `:memory:`, a `file:` URI and the empty path (a
/// private temporary database) would not be files the store's readers share. (A relative path
/// after the working directory changes is tested in RelativePathProcessTests.)
@Suite("SQLite store paths name one file for every connection")
struct SpecialPathTests {
    @Test("a relative path spelled like :memory: or a file: URI names that file, and its items are kept",
          arguments: [":memory:", "file:tickets.db", "file:tickets.db?mode=memory"])
    func literalPath(path: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A process of its own, so that the path is relative to the temporary folder without
        // changing this process's working directory.
        let output = try ProductRunner.run(ChildProcess.productsDirectory.appendingPathComponent("persist-crash-worker").path,
                                           ["ids", "sqlite", path, "3"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let store = SQLiteDataStore(path: directory.path(path), options: quietOptions { $0.createIfMissing = false })
        try store.setup()
        defer { try? store.tearDown() }
        #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Ticket")).map(\.id) } == [1, 2, 3])
    }

    @Test("an empty path is invalidArgument at setup, not a private database whose writes reads never see")
    func emptyPath() throws {
        let store = SQLiteDataStore(path: "", options: quietOptions())
        #expect {
            try store.setup()
        } throws: { error in
            (error as? DataStoreError)?.code == .invalidArgument
        }
        try? store.tearDown()
    }
}
