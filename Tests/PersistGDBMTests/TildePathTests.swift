import Foundation
import Persist
import PersistTestSupport
import Testing

@Suite("Store paths that start with ~")
struct TildePathTests {
    @Test("a relative path starting with ~ names a folder called ~, in write blocks as at setup",
          arguments: ["gdbm", "sqlite"])
    func literalTilde(kind: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path("~"), withIntermediateDirectories: false)
        // A process of its own, so that the path is relative to the temporary folder without
        // changing this process's working directory.
        let output = try ProductRunner.run(ChildProcess.productsDirectory.appendingPathComponent("persist-crash-worker").path,
                                           ["ids", kind, "~/tickets.db", "3"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path("~/tickets.db")))
    }
}
