import Foundation
import Persist
import PersistSQLite
import PersistTestSupport
import Testing

/// Store paths are file names, taken literally and resolved once: `:memory:`, a `file:` URI and the
/// empty path (a private temporary database) would not be files the store's readers share, nor
/// would a relative path the readers resolved again after the working directory changed.
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

    @Test("a store opened by a relative path keeps reading and observing its own file after the process changes its working directory")
    func workingDirectoryChange() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let elsewhere = directory.path("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        let output = try ProductRunner.run(ChildProcess.productsDirectory.appendingPathComponent("persist-crash-worker").path,
                                           ["cd-read", "sqlite", "notes.db", elsewhere], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.split(separator: "\n") == [#"Note/1 {v: "before"}"#, #"Note/2 {v: "after"}"#, "observed [1, 2]"], "\(output.stdout)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("elsewhere/notes.db")))
    }
}
