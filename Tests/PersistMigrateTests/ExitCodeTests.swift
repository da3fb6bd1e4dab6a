import CGDBM
import Foundation
import Persist
import PersistGDBM
import PersistTestSupport
import Testing

/// The bad-input cases (missing, damaged, locked and read-only stores, malformed --from and --to,
/// undecodable records) are in ReliabilityTests' bad-input suite.
@Suite("persist-migrate exits with the documented status and leaves every file as it was")
struct ExitCodeTests {
    /// Runs the tool; expects `status`, a message naming `naming`, and every listed file unchanged.
    static func expectFailure(
        _ status: Int32, _ arguments: [String], naming: String, in directory: TemporaryDirectory,
        unchanged files: [String], absent: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = files.map { fileBytes(directory.path($0)) }
        let output = try Tool.run(arguments + ["--progress", "never"], in: directory.url)
        #expect(output.status == status, "stderr: \(output.stderr)", sourceLocation: sourceLocation)
        #expect(output.stderr.contains(naming), "stderr: \(output.stderr)", sourceLocation: sourceLocation)
        #expect(files.map { fileBytes(directory.path($0)) } == before, "a file changed", sourceLocation: sourceLocation)
        for name in absent {
            #expect(!FileManager.default.fileExists(atPath: directory.path(name)), "\(name) exists", sourceLocation: sourceLocation)
        }
        let staged = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("persist-migrate") }
        #expect(staged.isEmpty, "staging files left: \(staged)", sourceLocation: sourceLocation)
    }

    static func withSource(_ body: (TemporaryDirectory) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try StoreFiles.gdbm(directory.path("old.db"), holding: StoreFiles.items(count: 20))
        try body(directory)
    }

    @Test("74, not 73, when the copy of an existing GDBM target cannot be written (a file size limit, a full disk)")
    func existingGDBMTargetCopyFails() throws {
        try Self.withSource { directory in
            try StoreFiles.gdbm(directory.path("kept.gdbm"), holding: StoreFiles.items(count: 400))
            let size = fileBytes(directory.path("kept.gdbm"))?.count ?? 0
            // A limit below the target's size, in the shell's blocks (512 or 1024 bytes); SIGXFSZ
            // ignored here stays ignored across exec, so the copy's write fails with EFBIG.
            let blocks = max(1, size / 2048)
            let tool = ProductRunner.productsDirectory.appendingPathComponent("persist-migrate").path
            let before = fileBytes(directory.path("kept.gdbm"))
            let output = try ProductRunner.run("/bin/sh", [
                "-c", "trap '' XFSZ; ulimit -f \(blocks); exec \"$0\" \"$@\"", tool,
                "old.db", "kept.gdbm", "--if-exists", "replace", "--progress", "never",
            ], in: directory.url)
            #expect(output.status == 74, "\(output.stderr)")
            #expect(output.stderr.contains("File too large"), "\(output.stderr)")
            #expect(output.stderr.contains("free disk space") && !output.stderr.contains("choose another target path"))
            #expect(fileBytes(directory.path("kept.gdbm")) == before)
            let listing = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
            #expect(listing == ["kept.gdbm", "old.db"])
        }
    }

    @Test("73, not 74, when an existing GDBM target's folder cannot be written: the hint is the folder's permissions")
    func existingGDBMTargetInUnwritableFolder() throws {
        try Self.withSource { directory in
            let folder = directory.path("kept")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            try StoreFiles.gdbm(directory.path("kept/kept.gdbm"), holding: StoreFiles.items(count: 8))
            let before = fileBytes(directory.path("kept/kept.gdbm"))
            try ReadOnlyFile.makeReadOnly(folder)
            defer { ReadOnlyFile.makeWritable(folder) }
            let output = try Tool.run(["old.db", "kept/kept.gdbm", "--if-exists", "replace", "--progress", "never"],
                                      in: directory.url)
            #expect(output.status == 73, "\(output.stderr)")
            #expect(output.stderr.contains("folder cannot be written") && output.stderr.contains("permissions"),
                    "\(output.stderr)")
            #expect(!output.stderr.contains("free disk space"), "\(output.stderr)")
            #expect(fileBytes(directory.path("kept/kept.gdbm")) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["kept.gdbm"])
        }
    }

    @Test("74, not 73, when a target cannot be opened for want of room: a new GDBM file, an existing SQLite database in WAL mode")
    func targetOpenFindsNoRoom() throws {
        try Self.withSource { directory in
            try StoreFiles.sqlite(directory.path("kept.sqlite"), holding: StoreFiles.items(count: 8))
            let before = fileBytes(directory.path("kept.sqlite"))
            let tool = ProductRunner.productsDirectory.appendingPathComponent("persist-migrate").path
            // A limit of 2 of the shell's blocks (1 or 2 KiB): GDBM cannot write a new file's first
            // blocks, nor SQLite grow the -shm file a database in WAL mode needs; SIGXFSZ ignored
            // here stays ignored across exec, so those writes fail with EFBIG, as on a full disk.
            for (target, extra) in [("new.gdbm", [String]()), ("kept.sqlite", ["--if-exists", "replace"])] {
                let output = try ProductRunner.run("/bin/sh", [
                    "-c", "trap '' XFSZ; ulimit -f 2; exec \"$0\" \"$@\"", tool, "old.db", target, "--progress", "never",
                ] + extra, in: directory.url)
                #expect(output.status == 74, "\(target): \(output.stderr)")
                #expect(output.stderr.contains("File too large") && output.stderr.contains("check free disk space"),
                        "\(target): \(output.stderr)")
                #expect(!output.stderr.contains("choose another target path"), "\(target): \(output.stderr)")
            }
            #expect(fileBytes(directory.path("kept.sqlite")) == before)
            #expect(!FileManager.default.fileExists(atPath: directory.path("new.gdbm")))
            let staged = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains("persist-migrate") }
            #expect(staged.isEmpty, "staging files left: \(staged)")
        }
    }

    @Test("64 for a bad option or a missing one, or the same file twice", arguments: [
        (["--from", "gdbm:old.db", "--to", "sqlite:new.sqlite", "--batch-size", "0"], "--batch-size"),
        (["--from", "gdbm:old.db", "--to", "sqlite:new.sqlite", "--if-exists", "merge"], "if-exists"),
        (["--from", "gdbm:old.db", "--to", "sqlite:new.sqlite", "--to-layout", "raw"], "GDBM targets only"),
        (["--from", "gdbm:old.db"], "--to"),
        (["--from", "gdbm:old.db", "--to", "gdbm:./old.db"], "same file"),
    ])
    func usage(_ arguments: [String], _ naming: String) throws {
        try Self.withSource { directory in
            try Self.expectFailure(64, arguments, naming: naming, in: directory, unchanged: ["old.db"], absent: ["new.sqlite"])
        }
    }

    @Test("65 for items the target cannot hold")
    func unstorable() throws {
        try Self.withSource { directory in
            try Self.expectFailure(65, ["--from", "gdbm:old.db", "--to", "gdbm:raw.dbm", "--to-layout", "raw"],
                                   naming: "raw.dbm", in: directory, unchanged: ["old.db"], absent: ["raw.dbm"])
        }
    }

    @Test("73 for a target that already holds the items, or that cannot be created")
    func cannotCreate() throws {
        try Self.withSource { directory in
            try StoreFiles.sqlite(directory.path("full.sqlite"), holding: StoreFiles.items(count: 8))
            try Self.expectFailure(73, ["--from", "gdbm:old.db", "--to", "sqlite:full.sqlite"],
                                   naming: "full.sqlite", in: directory, unchanged: ["old.db", "full.sqlite"])
            try StoreFiles.gdbm(directory.path("full.db"), holding: StoreFiles.items(count: 8))
            try Self.expectFailure(73, ["--from", "gdbm:old.db", "--to", "gdbm:full.db"],
                                   naming: "full.db", in: directory, unchanged: ["old.db", "full.db"])
            try Self.expectFailure(73, ["--from", "gdbm:old.db", "--to", "sqlite:no/such/dir/new.sqlite"],
                                   naming: "no/such/dir", in: directory, unchanged: ["old.db"])
            #expect(FileManager.default.createFile(atPath: directory.path("text.sqlite"), contents: Data("not a database at all".utf8)))
            try Self.expectFailure(73, ["--from", "gdbm:old.db", "--to", "sqlite:text.sqlite"],
                                   naming: "text.sqlite", in: directory, unchanged: ["old.db", "text.sqlite"])
        }
    }

    @Test("a message keeps its sentences when the target's path holds a word of the Swift API")
    func pathWithAPIWord() throws {
        try Self.withSource { directory in
            try FileManager.default.createDirectory(atPath: directory.path("DataStoreFiles"), withIntermediateDirectories: true)
            try StoreFiles.sqlite(directory.path("DataStoreFiles/full.sqlite"), holding: StoreFiles.items(count: 8))
            let output = try Tool.run(["--from", "gdbm:old.db", "--to", "sqlite:DataStoreFiles/full.sqlite", "--progress", "never"],
                                      in: directory.url)
            #expect(output.status == 73)
            #expect(output.stderr.contains("DataStoreFiles/full.sqlite already holds"), "\(output.stderr)")
        }
    }

    @Test("74 for an input/output error while writing, the target left absent")
    func ioError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try StoreFiles.gdbm(directory.path("old.db"), holding: StoreFiles.items(count: 600))
        let before = fileBytes(directory.path("old.db"))
        // A file size limit makes writes beyond 64 KiB fail with EFBIG (the signal is ignored).
        let tool = ProductRunner.productsDirectory.appendingPathComponent("persist-migrate").path
        let output = try ProductRunner.run("/bin/sh", [
            "-c", "trap '' XFSZ; ulimit -f 128; exec \"$0\" --from gdbm:old.db --to sqlite:new.sqlite --progress never", tool,
        ], in: directory.url)
        #expect(output.status == 74, "stderr: \(output.stderr)")
        #expect(output.stderr.contains("new.sqlite"))
        #expect(fileBytes(directory.path("old.db")) == before)
        #expect(!FileManager.default.fileExists(atPath: directory.path("new.sqlite")))
    }}
