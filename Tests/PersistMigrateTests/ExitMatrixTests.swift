import Foundation
import Persist
import PersistTestSupport
import Testing

/// One run of the tool in a directory of its own that holds `old.db`, a native GDBM store of 20
/// items: what to prepare, the arguments, the exit status, and what standard error must (and must
/// not) say. The runner also checks that every file that was there is byte-identical afterwards,
/// that only `creates` appeared, that no staging file is left, and that no message names a Swift API.
struct ExitCase: Sendable, CustomTestStringConvertible {
    let name: String
    let arguments: [String]
    let status: Int32
    /// Text standard error must contain (standard output, for a run that succeeds).
    let mentions: [String]
    /// Text standard error must not contain: hints that belong to other errors.
    var refuses: [String] = []
    var creates: Set<String> = []
    /// Files the run changes on purpose (an existing target that receives the copy).
    var changes: Set<String> = []
    var prepare: @Sendable (TemporaryDirectory) throws -> Void = { _ in }

    var testDescription: String { "\(name): exits \(status)" }

    /// Words of Swift APIs, which have no place in the tool's messages.
    static let apiWords = ["DataStore", "Options", "readOnly", "createIfMissing", "recover(path", "layout .raw", "setup()"]

    func run() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try StoreFiles.gdbm(directory.path("old.db"), holding: StoreFiles.items(count: 20))
        try prepare(directory)
        let before = try Self.snapshot(directory)
        let output = try Tool.run(arguments + ["--progress", "never"], in: directory.url)
        #expect(output.status == status, "\(name): stderr: \(output.stderr)")
        let said = status == 0 ? output.stdout : output.stderr
        for text in mentions {
            #expect(said.contains(text), "\(name): does not say \(String(reflecting: text)): \(said)")
        }
        for text in refuses + Self.apiWords {
            #expect(!output.stderr.contains(text), "\(name): says \(String(reflecting: text)): \(output.stderr)")
        }
        let after = try Self.snapshot(directory)
        for (file, bytes) in before where !changes.contains(file) {
            #expect(after[file] == bytes, "\(name): \(file) \(after[file] == nil ? "vanished" : "changed")")
        }
        let appeared = Set(after.keys).subtracting(before.keys)
        #expect(appeared == creates, "\(name): files appeared: \(appeared.sorted()), expected \(creates.sorted())")
    }

    static func snapshot(_ directory: TemporaryDirectory) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: directory.path(name), isDirectory: &isDirectory)
            files[name] = isDirectory.boolValue ? [] : fileBytes(directory.path(name)) ?? []
        }
        return files
    }
}

/// Every form of naming stores and every case the tool tells apart, with its exit status. The bad
/// files of each kind (truncated, locked, read-only, records of a newer format) are in
/// ReliabilityTests' bad-input suite; SIGINT and SIGTERM in InterruptTests.
enum ExitMatrix {
    static func write(_ name: String, _ bytes: [UInt8]) -> @Sendable (TemporaryDirectory) throws -> Void {
        { directory in try Data(bytes).write(to: URL(fileURLWithPath: directory.path(name))) }
    }

    static let noise: [UInt8] = (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }

    static let forms: [ExitCase] = [
        ExitCase(name: "kind:path for both", arguments: ["--from", "gdbm:old.db", "--to", "sqlite:new.sqlite"],
                 status: 0, mentions: ["copied gdbm:old.db → sqlite:new.sqlite"], creates: ["new.sqlite"]),
        ExitCase(name: "kinds as words, paths positional", arguments: ["--from", "gdbm", "--to", "sqlite", "old.db", "new.db"],
                 status: 0, mentions: ["copied gdbm:old.db → sqlite:new.db"], creates: ["new.db"]),
        ExitCase(name: "bare paths, kinds from content and extension", arguments: ["old.db", "new.sqlite"],
                 status: 0, mentions: ["copied gdbm:old.db → sqlite:new.sqlite", "(verified)"], creates: ["new.sqlite"]),
        ExitCase(name: "a bare source and --to kind:path", arguments: ["old.db", "--to", "gdbm:copy"],
                 status: 0, mentions: ["copied gdbm:old.db → gdbm:copy"], creates: ["copy"]),
        ExitCase(name: "--from kind:path and a positional target", arguments: ["--from", "gdbm:old.db", "new.sqlite3"],
                 status: 0, mentions: ["→ sqlite:new.sqlite3"], creates: ["new.sqlite3"]),
        ExitCase(name: "--from a kind word, the target bare", arguments: ["--from", "gdbm", "old.db", "new.dbm"],
                 status: 0, mentions: ["→ gdbm:new.dbm"], creates: ["new.dbm"]),
        ExitCase(name: "a .gdbm target", arguments: ["old.db", "new.gdbm"], status: 0, mentions: ["→ gdbm:new.gdbm"],
                 creates: ["new.gdbm"]),
        ExitCase(name: "an existing target's kind from its content", arguments: ["old.db", "existing", "--if-exists", "skip"],
                 status: 0, mentions: ["→ sqlite:existing"], changes: ["existing"], prepare: { directory in
                     try StoreFiles.sqlite(directory.path("existing"), holding: [Item(itemType: "Other", id: 1)])
                 }),
        ExitCase(name: "--recover on a source that needs it", arguments: ["crashed.db", "new.sqlite", "--recover"],
                 status: 0, mentions: ["needed recovery", "was not changed"], creates: ["new.sqlite"], prepare: { directory in
                     try FileManager.default.copyItem(atPath: directory.path("old.db"), toPath: directory.path("crashed.db"))
                     try MigrateFixtures.breakCleanClose(directory.path("crashed.db"))
                 }),
    ]

    static let usage: [ExitCase] = [
        ExitCase(name: "no store named", arguments: [], status: 64, mentions: ["name the source and the target"]),
        ExitCase(name: "a source and no target", arguments: ["old.db"], status: 64, mentions: ["name the target too"]),
        ExitCase(name: "--from a kind and no path", arguments: ["--from", "gdbm"], status: 64,
                 mentions: ["--from gdbm names the source's kind but no path"]),
        ExitCase(name: "--to a kind and no path for it", arguments: ["--from", "gdbm", "--to", "sqlite", "old.db"],
                 status: 64, mentions: ["--to sqlite names the target's kind but no path"]),
        ExitCase(name: "a path too many", arguments: ["old.db", "new.sqlite", "third.sqlite"], status: 64,
                 mentions: ["unexpected path \"third.sqlite\""]),
        ExitCase(name: "a new target of no known kind", arguments: ["old.db", "new.db"], status: 64,
                 mentions: ["cannot tell which kind of store to create at new.db", "sqlite:new.db", ".sqlite"]),
        ExitCase(name: "kind:path without the path", arguments: ["--from", "gdbm:", "--to", "sqlite:new.sqlite"],
                 status: 64, mentions: ["--from \"gdbm:\" has no path after \"gdbm:\""]),
        ExitCase(name: "an unknown kind", arguments: ["--from", "oracle:old.db", "new.sqlite"], status: 64,
                 mentions: ["unknown kind \"oracle\""]),
        ExitCase(name: "an unknown kind in a positional name", arguments: ["oracle:old.db", "new.sqlite"], status: 64,
                 mentions: ["the source \"oracle:old.db\" has the unknown kind \"oracle\""]),
        ExitCase(name: "a positional kind:path without the path", arguments: ["old.db", "sqlite:"], status: 64,
                 mentions: ["\"sqlite:\" names the target's kind but no path"]),
        ExitCase(name: "a path too many that is a URL with a password",
                 arguments: ["old.db", "new.sqlite", "postgresql://app:s3cret@127.0.0.1:1/app"], status: 64,
                 mentions: ["unexpected path \"postgresql://app@127.0.0.1:1/app\""], refuses: ["s3cret"]),
        ExitCase(name: "a URL with a password where a number belongs",
                 arguments: ["old.db", "--batch-size", "postgresql://app:s3cret@127.0.0.1:1/app"], status: 64,
                 mentions: ["--batch-size", "postgresql://app@127.0.0.1:1/app"], refuses: ["s3cret"]),
        ExitCase(name: "a URL of an unknown scheme", arguments: ["old.db", "--to", "mysql://localhost/app"], status: 64,
                 mentions: ["unknown scheme \"mysql\"", "postgresql://"]),
        ExitCase(name: "an unreachable PostgreSQL server", arguments: ["old.db", "--to", "postgresql://app@127.0.0.1:1/app"],
                 status: 69, mentions: ["Could not connect", "127.0.0.1:1"]),
        ExitCase(name: "a malformed PostgreSQL URL", arguments: ["old.db", "postgresql://app@localhost:99999/app"],
                 status: 64, mentions: ["port"]),
        ExitCase(name: "a target schema PostgreSQL keeps for itself",
                 arguments: ["old.db", "postgresql://app@127.0.0.1:1/app?schema=pg_backup"], status: 64,
                 mentions: ["\"pg_backup\" begins with pg_"], refuses: ["Could not connect"]),
        ExitCase(name: "the same file twice", arguments: ["old.db", "gdbm:./old.db"], status: 64, mentions: ["same file"]),
        ExitCase(name: "a hard link to the source as the target", arguments: ["old.db", "gdbm:twin.db"], status: 64,
                 mentions: ["same file", "hard link"], prepare: { directory in
                     guard link(directory.path("old.db"), directory.path("twin.db")) == 0 else {
                         throw CocoaError(.fileWriteUnknown)
                     }
                 }),
        ExitCase(name: "--to-layout raw for SQLite", arguments: ["old.db", "new.sqlite", "--to-layout", "raw"], status: 64,
                 mentions: ["--to-layout raw applies to GDBM targets only"]),
        ExitCase(name: "--recover for SQLite", arguments: ["app.sqlite", "new.gdbm", "--recover"], status: 64,
                 mentions: ["--recover applies to GDBM sources only"], prepare: { directory in
                     try StoreFiles.sqlite(directory.path("app.sqlite"), holding: StoreFiles.items(count: 3))
                 }),
        ExitCase(name: "a batch size of 0", arguments: ["old.db", "new.sqlite", "--batch-size", "0"], status: 64,
                 mentions: ["--batch-size"]),
        ExitCase(name: "a negative batch size", arguments: ["old.db", "new.sqlite", "--batch-size", "-5"], status: 64,
                 mentions: ["--batch-size must be at least 1, not -5"], refuses: ["Missing value"]),
        ExitCase(name: "--types without names", arguments: ["old.db", "new.sqlite", "--types", ","], status: 64,
                 mentions: ["--types needs item type names"]),
    ]

    static let sources: [ExitCase] = [
        ExitCase(name: "a missing source", arguments: ["missing.db", "new.sqlite"], status: 66,
                 mentions: ["there is no source at missing.db", "check the path"]),
        ExitCase(name: "a 0-byte source", arguments: ["empty.db", "new.sqlite"], status: 66,
                 mentions: ["empty.db is empty (0 bytes)"], prepare: write("empty.db", [])),
        ExitCase(name: "a 0-byte source named as SQLite", arguments: ["--from", "sqlite:empty.sqlite", "new.gdbm"],
                 status: 66, mentions: ["empty.sqlite is empty (0 bytes)"], prepare: write("empty.sqlite", [])),
        ExitCase(name: "a source of undetectable content", arguments: ["noise.bin", "new.sqlite"], status: 66,
                 mentions: ["noise.bin is neither an SQLite database nor a GDBM file"], prepare: write("noise.bin", noise)),
        ExitCase(name: "a source file named with a / after it", arguments: ["old.db/", "new.sqlite"], status: 66,
                 mentions: ["the source old.db/ ends in '/'", "old.db is a file", "without the '/'"],
                 refuses: ["there is no source"]),
        ExitCase(name: "a source that has a GDBM header and nothing more", arguments: ["cut.db", "new.sqlite"], status: 66,
                 mentions: ["cut.db", "check that cut.db is a readable"], refuses: ["check that the source"],
                 prepare: write("cut.db", [0xCF, 0x9A, 0x57, 0x13] + Array(noise.prefix(20)))),
        ExitCase(name: "a source below a ~ the shell left alone", arguments: ["--from", "gdbm:~/old.db", "new.sqlite"],
                 status: 66, mentions: ["there is no source at ~/old.db", "$HOME/"]),
        ExitCase(name: "a directory as the source", arguments: ["folder", "new.sqlite"], status: 66,
                 mentions: ["folder is a directory"], prepare: { directory in
                     try FileManager.default.createDirectory(atPath: directory.path("folder"), withIntermediateDirectories: false)
                 }),
        ExitCase(name: "a source of the other kind than named", arguments: ["--from", "sqlite:old.db", "new.gdbm"],
                 status: 66, mentions: ["old.db is a GDBM file, not an SQLite database", "gdbm:old.db"]),
        ExitCase(name: "a source that needs recovery", arguments: ["crashed.db", "new.sqlite"], status: 66,
                 mentions: ["needs recovery", "--recover"], prepare: { directory in
                     try FileManager.default.copyItem(atPath: directory.path("old.db"), toPath: directory.path("crashed.db"))
                     try MigrateFixtures.breakCleanClose(directory.path("crashed.db"))
                 }),
        ExitCase(name: "--from-layout native on a foreign file", arguments: ["legacy.dbm", "new.sqlite", "--from-layout", "native"],
                 status: 66, mentions: ["leave out --from-layout"], prepare: { directory in
                     try ForeignFile.create(directory.path("legacy.dbm"), pairs: [[1]: [2]])
                 }),
    ]

    static let targets: [ExitCase] = [
        ExitCase(name: "a target that holds the items", arguments: ["old.db", "full.sqlite"], status: 73,
                 mentions: ["full.sqlite was left as it was", "--if-exists replace"], prepare: { directory in
                     try StoreFiles.sqlite(directory.path("full.sqlite"), holding: StoreFiles.items(count: 3))
                 }),
        ExitCase(name: "an existing GDBM target that holds the items", arguments: ["old.db", "full.gdbm"], status: 73,
                 mentions: ["full.gdbm already holds 3 of the items", "full.gdbm was left as it was", "--if-exists replace"],
                 refuses: ["being built"], prepare: { directory in
                     try StoreFiles.gdbm(directory.path("full.gdbm"), holding: StoreFiles.items(count: 3))
                 }),
        ExitCase(name: "a target in a missing folder", arguments: ["old.db", "no/such/new.sqlite"], status: 73,
                 mentions: ["the folder no/such does not exist"], refuses: ["--if-exists"]),
        ExitCase(name: "a target below a file, not a folder", arguments: ["old.db", "old.db/new.sqlite"], status: 73,
                 mentions: ["a file, not a directory", "old.db is not a folder"], refuses: ["does not exist"]),
        ExitCase(name: "a target named SQLite that is not a database", arguments: ["old.db", "sqlite:text.sqlite"],
                 status: 73, mentions: ["text.sqlite", "choose another target path"], refuses: ["--if-exists"],
                 prepare: write("text.sqlite", Array("not a database at all, just some text".utf8))),
        ExitCase(name: "a bare target of undetectable content", arguments: ["old.db", "noise.bin"], status: 73,
                 mentions: ["noise.bin is neither an SQLite database nor a GDBM file"], refuses: ["--if-exists"],
                 prepare: write("noise.bin", noise)),
        ExitCase(name: "a damaged existing GDBM target", arguments: ["old.db", "damaged.gdbm"], status: 73,
                 mentions: ["damaged.gdbm"], refuses: ["check the path of the store to copy", "--recover"],
                 prepare: { directory in
                     try StoreFiles.gdbm(directory.path("whole.gdbm"), holding: StoreFiles.items(count: 3))
                     let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.path("whole.gdbm")))
                     try bytes.prefix(100).write(to: URL(fileURLWithPath: directory.path("damaged.gdbm")))
                     try FileManager.default.removeItem(atPath: directory.path("whole.gdbm"))
                 }),
        ExitCase(name: "--recover with the target in a missing folder", arguments: ["crashed.db", "no/such/new.sqlite", "--recover"],
                 status: 73, mentions: ["crashed.db", "target's folder"], refuses: ["check the path of the store to copy"],
                 prepare: { directory in
                     try FileManager.default.copyItem(atPath: directory.path("old.db"), toPath: directory.path("crashed.db"))
                     try MigrateFixtures.breakCleanClose(directory.path("crashed.db"))
                 }),
        ExitCase(name: "a target below a ~ the shell left alone", arguments: ["old.db", "sqlite:~/new.sqlite"], status: 73,
                 mentions: ["the folder ~ does not exist", "$HOME/"], refuses: ["free disk space"]),
        ExitCase(name: "an existing target in a folder named ~", arguments: ["old.db", "~/kept.gdbm", "--if-exists", "skip"],
                 status: 0, mentions: ["→ gdbm:~/kept.gdbm"], prepare: { directory in
                     try FileManager.default.createDirectory(atPath: directory.path("~"), withIntermediateDirectories: false)
                     try StoreFiles.gdbm(directory.path("~/kept.gdbm"), holding: [Item(itemType: "Other", id: 1)])
                 }),
        ExitCase(name: "a new target whose path ends in /", arguments: ["old.db", "new.sqlite/"], status: 73,
                 mentions: ["new.sqlite/ ends in '/'", "without the '/'"], refuses: ["free disk space"]),
        ExitCase(name: "a file target named with a / after it", arguments: ["old.db", "sqlite:old.db/"], status: 73,
                 mentions: ["old.db/ ends in '/'"], refuses: ["free disk space", "same file"]),
        ExitCase(name: "a directory as the target", arguments: ["old.db", "sqlite:folder"], status: 73,
                 mentions: ["folder"], refuses: ["--if-exists"], prepare: { directory in
                     try FileManager.default.createDirectory(atPath: directory.path("folder"), withIntermediateDirectories: false)
                 }),
    ]

    static let data: [ExitCase] = [
        ExitCase(name: "items a raw target cannot hold", arguments: ["old.db", "raw.dbm", "--to-layout", "raw"], status: 65,
                 mentions: ["raw.dbm", "--to-layout native", "--types"], refuses: ["--dry-run"]),
        ExitCase(name: "a source row of TEXT that is not valid UTF-8", arguments: ["utf.sqlite", "copy.sqlite"], status: 65,
                 mentions: ["not valid UTF-8", "column \"v\"", "no copy.sqlite was created"], prepare: { directory in
                     let raw = try RawDatabase(directory.path("utf.sqlite"))
                     defer { raw.close() }
                     try raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, CAST(x'ff61' AS TEXT));")
                 }),
        ExitCase(name: "a source store with no items is copied and verified", arguments: ["empty.sqlite", "new.gdbm"],
                 status: 0, mentions: ["(verified)"], refuses: ["not verified"], creates: ["new.gdbm"],
                 prepare: { directory in
                     let raw = try RawDatabase(directory.path("empty.sqlite"))
                     defer { raw.close() }
                     try raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);")
                 }),
        ExitCase(name: "--types naming a type the source does not have only warns",
                 arguments: ["old.db", "new.sqlite", "--types", "Restaurant,Restuarant"], status: 0,
                 mentions: ["--types names \"Restuarant\", which the source does not have"], creates: ["new.sqlite"]),
        ExitCase(name: "a source column with an empty name that holds values", arguments: ["unnamed.sqlite", "copy.sqlite"],
                 status: 65, mentions: ["\"t\".\"\" (an empty name)", "no copy.sqlite was created", "--types"],
                 refuses: ["the item named above"], prepare: { directory in
                     let raw = try RawDatabase(directory.path("unnamed.sqlite"))
                     defer { raw.close() }
                     try raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, \"\" TEXT); INSERT INTO t VALUES (1, 'lost');")
                 }),
        ExitCase(name: "a source table whose rows the copy cannot carry", arguments: ["keys.sqlite", "copy.sqlite"],
                 status: 65, mentions: ["\"prices\" (no usable key", "no copy.sqlite was created", "--types"],
                 prepare: leftBehindTable),
        ExitCase(name: "--types leaving out a table the copy cannot carry", arguments: ["keys.sqlite", "copy.sqlite", "--types", "t"],
                 status: 0, mentions: ["(verified)"], refuses: ["prices"], creates: ["copy.sqlite"], prepare: leftBehindTable),
        ExitCase(name: "--types naming a table the copy cannot carry",
                 arguments: ["keys.sqlite", "copy.sqlite", "--types", "t,prices"], status: 65,
                 mentions: ["\"prices\" (no usable key", "no copy.sqlite was created"], prepare: leftBehindTable),
        ExitCase(name: "a source whose items break its own foreign key", arguments: ["music.sqlite", "copy.sqlite"],
                 status: 65, mentions: ["track/11 refers to album/7", "no copy.sqlite was created", "--drop-relations"],
                 prepare: brokenReferences),
        ExitCase(name: "--drop-relations copying a source that breaks its own foreign key",
                 arguments: ["music.sqlite", "copy.sqlite", "--drop-relations"], status: 0,
                 mentions: ["(verified)", "1 relation(s) of the source were not carried, as asked (track_album_id_fkey)"],
                 creates: ["copy.sqlite"], prepare: brokenReferences),
    ]

    /// An album table and a track table whose foreign key one track breaks: the legacy program
    /// that wrote it never turned SQLite's foreign keys on.
    static let brokenReferences: @Sendable (TemporaryDirectory) throws -> Void = { directory in
        let raw = try RawDatabase(directory.path("music.sqlite"))
        defer { raw.close() }
        try raw.exec("""
            CREATE TABLE album (id INTEGER PRIMARY KEY, title TEXT);
            CREATE TABLE track (id INTEGER PRIMARY KEY, album_id INTEGER REFERENCES album (id), name TEXT);
            INSERT INTO album VALUES (1, 'kept'); INSERT INTO track VALUES (10, 1, 'fine'), (11, 7, 'orphan');
            """)
    }

    /// A table keyed by a REAL column, which no identifier fits, beside an ordinary one.
    static let leftBehindTable: @Sendable (TemporaryDirectory) throws -> Void = { directory in
        let raw = try RawDatabase(directory.path("keys.sqlite"))
        defer { raw.close() }
        try raw.exec("""
            CREATE TABLE prices (k REAL PRIMARY KEY, v TEXT) WITHOUT ROWID; INSERT INTO prices VALUES (1.5, 'a');
            CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'kept');
            """)
    }

    static let cases = forms + usage + sources + targets + data + reshape
}

// Serialized: each case blocks a test thread while the tool runs, and live-query tests elsewhere
// need threads free to see their results.
@Suite("persist-migrate's exit matrix: every form and case, its status, a message that fits, nothing changed", .serialized)
struct ExitMatrixTests {
    @Test("exit matrix", arguments: ExitMatrix.cases)
    func exitCase(_ exitCase: ExitCase) throws {
        try exitCase.run()
    }

    @Test("the cases have distinct names; the matrix with the bad-input and interrupt cases is counted")
    func size() {
        #expect(Set(ExitMatrix.cases.map(\.name)).count == ExitMatrix.cases.count)
        #expect(ExitMatrix.cases.count == 88, "update the count here and in the README")
    }
}
