import Foundation
import PersistTestSupport
import Testing

/// A target that is a device, a pipe or a socket is refused before anything is opened, however it
/// is named: SQLite would otherwise open a device and write its pages to it. (Not in the exit
/// matrix, whose snapshot reads every file: reading a pipe blocks.)
@Suite("persist-migrate refuses a target that is no regular file, named with a kind or not")
struct SpecialFileTargetTests {
    @Test("73 for a named pipe as the target, with the message of a bare path", arguments: [
        ["old.db", "pipe"], ["old.db", "sqlite:pipe"], ["old.db", "gdbm:pipe"], ["--to", "sqlite", "old.db", "pipe"],
    ])
    func namedPipeTarget(_ arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try StoreFiles.gdbm(directory.path("old.db"), holding: StoreFiles.items(count: 5))
        try #require(mkfifo(directory.path("pipe"), 0o644) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        let output = try Tool.run(arguments + ["--progress", "never"], in: directory.url)
        #expect(output.status == 73, "stderr: \(output.stderr)")
        #expect(output.stderr.contains("the target pipe is not a regular file"), "stderr: \(output.stderr)")
        for wrong in ["directory", "disk I/O", "free disk space", "Illegal seek"] {
            #expect(!output.stderr.contains(wrong), "says \(String(reflecting: wrong)): \(output.stderr)")
        }
        var status = stat()
        #expect(stat(directory.path("pipe"), &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the pipe was replaced")
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(listing == ["old.db", "pipe"], "files appeared: \(listing)")
    }
}
