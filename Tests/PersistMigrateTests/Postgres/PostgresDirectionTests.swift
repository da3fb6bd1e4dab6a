import Foundation
import Persist
import PersistTestSupport
import Testing

/// Every direction to and from PostgreSQL, each test in a schema of its own on the run's server.
@Suite("persist-migrate copies to and from PostgreSQL in every direction", .serialized)
struct PostgresDirectionTests {
    static let run: @Sendable ([String], URL) throws -> ProductRunner.Output = { arguments, directory in
        try Tool.run(arguments + ["--progress", "never"], in: directory)
    }

    @Test("native GDBM → PostgreSQL → native GDBM, verified both ways, the source unchanged",
          arguments: ["gdbm", "sqlite"])
    func fileToPostgresAndBack(kind: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let items = StoreFiles.items()
        let name = kind == "gdbm" ? "old.gdbm" : "old.sqlite"
        try StoreFiles.create(kind == "gdbm" ? .gdbm : .sqlite, directory.path(name), holding: items)
        let before = fileBytes(directory.path(name))
        let there = try Self.run([name, pg.url], directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        #expect(there.stdout.contains("(verified)"))
        // A URL names its kind: the summary gives it once, as typed (without a password).
        #expect(there.stdout.hasPrefix("copied \(kind):\(name) → \(pg.url) in "), "\(there.stdout)")
        #expect(fileBytes(directory.path(name)) == before)
        #expect(try pg.contents() == Set(items))
        let back = kind == "gdbm" ? "back.gdbm" : "back.sqlite"
        let returned = try Self.run(["--from", "postgres", "--to", kind, pg.url, back], directory.url)
        #expect(returned.status == 0, "\(returned.stderr)")
        #expect(returned.stdout.hasPrefix("copied \(pg.url) → \(kind):\(back) in "), "\(returned.stdout)")
        #expect(try StoreFiles.contents(kind == "gdbm" ? .gdbm : .sqlite, directory.path(back)) == Set(items))
    }

    @Test("--recover serves a GDBM source that needs it on the way to PostgreSQL, leaving the source as it was")
    func recoverToPostgres() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let items = StoreFiles.items(count: 12)
        try StoreFiles.gdbm(directory.path("crashed.db"), holding: items)
        try MigrateFixtures.breakCleanClose(directory.path("crashed.db"))
        let before = fileBytes(directory.path("crashed.db"))
        let output = try Self.run(["crashed.db", pg.url, "--recover"], directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("needed recovery"), "\(output.stdout)")
        #expect(try pg.contents() == Set(items))
        let unchanged = fileBytes(directory.path("crashed.db")) == before
        #expect(unchanged, "the source changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["crashed.db"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix(".crashed.db.") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("--recover into PostgreSQL removes the recovery copy a killed run left in the temporary folder, and keeps a running one's")
    func recoverRemovesStaleCopies() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        try StoreFiles.gdbm(directory.path("crashed.db"), holding: StoreFiles.items(count: 3))
        try MigrateFixtures.breakCleanClose(directory.path("crashed.db"))
        // The tool's temporary folder is this test's own, through TMPDIR.
        let temporary = directory.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let stale = ".crashed.db.persist-migrate-\(finished.processIdentifier)-7.recovering"
        let running = ".crashed.db.persist-migrate-\(getpid())-7.recovering"
        for name in [stale, running] { try Data([1, 2, 3]).write(to: URL(fileURLWithPath: temporary + "/" + name)) }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary
        let output = try ProductRunner.run("persist-migrate", ["crashed.db", pg.url, "--recover", "--progress", "never"],
                                           in: directory.url, environment: environment)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [running])
    }

    @Test("a raw GDBM file → PostgreSQL → a raw GDBM file, byte for byte pair by pair")
    func rawThroughPostgres() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let pairs: [[UInt8]: [UInt8]] = [[1, 2, 0, 255]: [0, 0, 9], Array("key".utf8): [], [7]: Array("é\u{0}x".utf8)]
        try ForeignFile.create(directory.path("foreign.dbm"), pairs: pairs)
        let there = try Self.run(["foreign.dbm", pg.url], directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        let back = try Self.run(["--to-layout", "raw", pg.url, "gdbm:back.dbm"], directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try ForeignFile.pairs(directory.path("back.dbm")) == pairs)
    }

    @Test("PostgreSQL → PostgreSQL: one schema to another with postgres:// and postgresql:// URLs")
    func postgresToPostgres() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try PostgresScratch()
        let target = try PostgresScratch()
        defer { source.drop(); target.drop() }
        let items = StoreFiles.items(count: 12)
        try source.seed(items)
        let other = target.url.replacingOccurrences(of: "postgresql://", with: "postgres://")
        let output = try Self.run(["--from", source.url, "--to", other, "--json"], directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("\"kind\":\"postgresql\""))
        #expect(try target.contents() == Set(items))
        #expect(try source.contents() == Set(items))
    }

    @Test("mixed kinds in one attribute travel SQLite → PostgreSQL → GDBM → PostgreSQL → SQLite unchanged")
    func mixedKinds() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try PostgresScratch()
        let second = try PostgresScratch()
        defer { first.drop(); second.drop() }
        let values: [Value] = [.int(1), .string("two"), .bool(true), .double(-0.0), .date(Date(timeIntervalSince1970: 5)),
                               .bytes([0, 1]), .array([.int(1), .null]), .object(["k": .string("v")]), .null,
                               .int(.min), .double(.infinity), .string("a\u{0}b")]
        let items = values.enumerated().map { index, value in
            Item(itemType: "Mixed", id: .int(Int64(index)), attributes: value == .null ? [:] : ["v": value])
        }
        try StoreFiles.sqlite(directory.path("a.sqlite"), holding: items)
        let steps: [[String]] = [["a.sqlite", first.url], [first.url, "b.gdbm"], ["b.gdbm", second.url],
                                 [second.url, "c.sqlite"]]
        for step in steps {
            let output = try Self.run(step, directory.url)
            #expect(output.status == 0, "\(step): \(output.stderr)")
        }
        #expect(try first.contents() == Set(items))
        #expect(try second.contents() == Set(items))
        #expect(try StoreFiles.contents(.sqlite, directory.path("c.sqlite")) == Set(items))
    }

    @Test("--if-exists fail, skip and replace on a PostgreSQL target; fail writes nothing")
    func ifExists() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let old = [Item(itemType: "Review", id: .string("review-0"), attributes: ["stars": .int(1)]),
                   Item(itemType: "Note", id: .int(1), attributes: ["text": .string("kept")])]
        try pg.seed(old)
        let items = StoreFiles.items(count: 8)
        try StoreFiles.gdbm(directory.path("old.gdbm"), holding: items)

        let failed = try Self.run(["old.gdbm", pg.url], directory.url)
        #expect(failed.status == 73, "\(failed.stderr)")
        // A server has no target path to choose: the hint names another schema.
        #expect(failed.stderr.contains("?schema=NAME") && !failed.stderr.contains("target path"), "\(failed.stderr)")
        #expect(try pg.contents() == Set(old))

        let skipped = try Self.run(["old.gdbm", pg.url, "--if-exists", "skip"], directory.url)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        let kept = Set(items.filter { $0.id != .string("review-0") } + old)
        #expect(try pg.contents() == kept)

        let replaced = try Self.run(["old.gdbm", pg.url, "--if-exists", "replace"], directory.url)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try pg.contents() == Set(items + [old[1]]))
    }
}
