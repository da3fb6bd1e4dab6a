import Foundation
import Persist
import PersistTestSupport
import Testing

/// A source table the copy cannot carry as items fails the run before anything is written, unless
/// `--types` leaves it out: the tool never exits 0 with rows left behind.
@Suite("persist-migrate fails, writing nothing, when a source table's rows would be left behind")
struct LeftBehindTableTests {
    /// A table keyed by a REAL column, which no identifier fits, beside an ordinary one.
    static let source = """
        CREATE TABLE prices (k REAL PRIMARY KEY, v TEXT) WITHOUT ROWID;
        INSERT INTO prices VALUES (1.5, 'a'), (2.5, 'b');
        CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);
        INSERT INTO t VALUES (1, 'kept');
        """

    private static func prepare(_ sql: String, in directory: TemporaryDirectory) throws {
        let raw = try RawDatabase(directory.path("app.sqlite"))
        defer { raw.close() }
        try raw.exec(sql)
    }

    @Test("a table with no usable key: exit 65 naming it and why, no target created, no staging file left")
    func noUsableKeyFails() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.prepare(Self.source, in: directory)
        let before = try ExitCase.snapshot(directory)
        let run = try Tool.run(["app.sqlite", "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("\"prices\" (no usable key: its primary key \"k\" has REAL affinity"), "\(run.stderr)")
        #expect(run.stderr.contains("no copy.sqlite was created; nothing was written"), "\(run.stderr)")
        #expect(run.stderr.contains("--types"), "\(run.stderr)")
        #expect(!run.stderr.contains("\"t\""), "\(run.stderr)")
        #expect(try ExitCase.snapshot(directory) == before, "a file appeared or changed")

        let json = try Tool.run(["app.sqlite", "copy.sqlite", "--json"], in: directory.url)
        #expect(json.status == 65)
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let error = summary?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "tableNotCopied", "\(json.stdout)")
        #expect((error?["message"] as? String)?.contains("\"prices\"") == true, "\(json.stdout)")
        #expect(try ExitCase.snapshot(directory) == before, "a file appeared or changed")
    }

    @Test("an existing SQLite target and a dry run are left byte for byte as they were")
    func existingTargetUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.prepare(Self.source, in: directory)
        try StoreFiles.sqlite(directory.path("existing.sqlite"), holding: [Item(itemType: "Other", id: 1)])
        let before = try ExitCase.snapshot(directory)
        for extra in [[], ["--dry-run"]] {
            let run = try Tool.run(["app.sqlite", "existing.sqlite", "--progress", "never"] + extra, in: directory.url)
            #expect(run.status == 65, "\(extra): \(run.stderr)")
            #expect(run.stderr.contains("existing.sqlite was left as it was"), "\(extra): \(run.stderr)")
            #expect(try ExitCase.snapshot(directory) == before, "\(extra): a file appeared or changed")
        }
    }

    @Test("--types leaving the table out copies the rest, exits 0 and does not name it")
    func typesLeaveItOut() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.prepare(Self.source, in: directory)
        let run = try Tool.run(["app.sqlite", "copy.sqlite", "--types", "t", "--progress", "never"], in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("(verified)"), "\(run.stdout)")
        #expect(!run.stdout.contains("prices") && !run.stderr.contains("prices"), "\(run.stdout)\(run.stderr)")
        #expect(try StoreFiles.contents(.sqlite, directory.path("copy.sqlite"))
                    == [Item(itemType: "t", id: 1, attributes: ["v": "kept"])])
    }

    @Test("--types naming the table fails the same way")
    func typesNamingItFails() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.prepare(Self.source, in: directory)
        let run = try Tool.run(["app.sqlite", "copy.sqlite", "--types", "t,prices", "--progress", "never"], in: directory.url)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("\"prices\" (no usable key"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("copy.sqlite")))
    }

    @Test("tables whose names or column names are spelled two ways: each named, 65")
    func ambiguousNamesFail() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.prepare("""
            CREATE TABLE "caf\u{E9}" (id INTEGER PRIMARY KEY, v TEXT);
            CREATE TABLE "cafe\u{301}" (id INTEGER PRIMARY KEY, v TEXT);
            CREATE TABLE cols (id INTEGER PRIMARY KEY, "na\u{EF}ve" TEXT, "nai\u{308}ve" TEXT);
            INSERT INTO "caf\u{E9}" VALUES (1, 'composed');
            INSERT INTO "cafe\u{301}" VALUES (2, 'decomposed');
            INSERT INTO cols VALUES (1, 'a', 'b');
            """, in: directory)
        let run = try Tool.run(["app.sqlite", "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("2 tables whose rows the copy cannot carry"), "\(run.stderr)")
        #expect(run.stderr.contains("\"cols\" (ambiguous name"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("copy.sqlite")))
    }

    @Test("a view is no table with rows: still only a note, exit 0")
    func viewStaysANote() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.prepare("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);
            INSERT INTO t VALUES (1, 'kept');
            CREATE VIEW kept AS SELECT v FROM t;
            """, in: directory)
        let run = try Tool.run(["app.sqlite", "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("the source's table \"kept\" was not copied: a view"), "\(run.stdout)")
    }
}
