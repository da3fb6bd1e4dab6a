import Foundation
import Persist
import PersistTestSupport
import Testing

/// Relative store paths, in a worker process of their own, so that the path is relative to a
/// temporary folder without changing this process's working directory.
@Suite("Relative store paths in a process of its own")
struct RelativePathProcessTests {
    private static func worker(_ arguments: [String], in directory: TemporaryDirectory) throws -> ProductRunner.Output {
        try ProductRunner.run(ChildProcess.productsDirectory.appendingPathComponent("persist-crash-worker").path,
                              arguments, in: directory.url)
    }

    @Test("a relative path starting with ~ names a folder called ~, in write blocks as at setup",
          arguments: ["gdbm", "sqlite"])
    func literalTilde(kind: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path("~"), withIntermediateDirectories: false)
        let output = try Self.worker(["ids", kind, "~/tickets.db", "3"], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path("~/tickets.db")))
    }

    @Test("a store opened by a relative path keeps reading, writing and observing its own file after the process changes its working directory",
          arguments: ["sqlite", "gdbm"])
    func workingDirectoryChange(kind: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let elsewhere = directory.path("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        let output = try Self.worker(["cd-read", kind, "notes.db", elsewhere], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.split(separator: "\n") == [#"Note/1 {v: "before"}"#, #"Note/2 {v: "after"}"#, "observed [1, 2]"], "\(output.stdout)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("elsewhere/notes.db")))
    }
}
