import Foundation
import Persist
import PersistTestSupport
import Testing

@Suite("persist-migrate options")
struct OptionTests {
    static func source(_ directory: TemporaryDirectory) throws -> [Item] {
        let items = StoreFiles.items(count: 24)
        try StoreFiles.gdbm(directory.path("old.db"), holding: items)
        return items
    }

    static func summary(_ output: ProductRunner.Output) throws -> [String: Any] {
        let json = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
        return json as? [String: Any] ?? [:]
    }

    @Test("--types copies only the chosen types")
    func types() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = try Self.source(directory)
        let output = try Tool.run(["--from", "gdbm:old.db", "--to", "sqlite:new.sqlite", "--types", "Review"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try StoreFiles.contents(.sqlite, directory.path("new.sqlite")) == Set(items.filter { $0.itemType == "Review" }))
    }

    @Test("--types given more than once copies the types of every one, as one list with commas does")
    func repeatedTypes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = try Self.source(directory)
        let kinds = Set(items.map(\.itemType)).sorted()
        try #require(kinds.count >= 2)
        let output = try Tool.run(["old.db", "new.sqlite", "--progress", "never", "--types", kinds[0], "--types", kinds[1]],
                                  in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let copied = try StoreFiles.contents(.sqlite, directory.path("new.sqlite"))
        #expect(copied == Set(items.filter { kinds.prefix(2).contains($0.itemType) }))
    }

    @Test("the summary's table aligns and never cuts item type names of any script")
    func summaryNames() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let names = ["cafe\u{301}", "\u{1F469}\u{200D}\u{1F4BB} developers", "plain"]
        try StoreFiles.gdbm(directory.path("old.db"), holding: names.map { Item(itemType: $0, id: 1, attributes: ["v": 1]) })
        let output = try Tool.run(["--from", "gdbm:old.db", "--to", "sqlite:new.sqlite", "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let rows = output.stdout.split(separator: "\n").map(String.init).filter { line in names.contains { line.hasPrefix("  " + $0) } }
        #expect(rows.count == names.count, "\(output.stdout)")
        // The first number of every row starts in the same column (counted in characters).
        let starts = Set(rows.map { row in row.firstIndex(of: "1").map { row.distance(from: row.startIndex, to: $0) } ?? -1 })
        #expect(starts.count == 1, "\(output.stdout)")
    }

    @Test("--if-exists replace and skip treat the items already there as asked")
    func ifExists() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = try Self.source(directory)
        let changed = Item(itemType: "Review", id: "review-1", attributes: ["stars": 0.5, "extra": "kept?"])
        let unrelated = Item(itemType: "Other", id: 1)
        try StoreFiles.sqlite(directory.path("skip.sqlite"), holding: [changed, unrelated])
        try StoreFiles.sqlite(directory.path("replace.sqlite"), holding: [changed, unrelated])
        let skip = try Tool.run(["--from", "gdbm:old.db", "--to", "sqlite:skip.sqlite", "--if-exists", "skip", "--json"], in: directory.url)
        #expect(skip.status == 0, "\(skip.stderr)")
        #expect(try StoreFiles.contents(.sqlite, directory.path("skip.sqlite"))
            == Set(items.filter { $0.reference != changed.reference } + [changed, unrelated]))
        let totals = try Self.summary(skip)["totals"] as? [String: Int]
        #expect(totals?["skipped"] == 1 && totals?["written"] == items.count - 1)
        let replace = try Tool.run(["--from", "gdbm:old.db", "--to", "sqlite:replace.sqlite", "--if-exists", "replace"], in: directory.url)
        #expect(replace.status == 0, "\(replace.stderr)")
        #expect(try StoreFiles.contents(.sqlite, directory.path("replace.sqlite")) == Set(items + [unrelated]))
    }

    @Test("--dry-run does what the real run would, fails where it would, and writes nothing")
    func dryRun() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = try Self.source(directory)
        try StoreFiles.gdbm(directory.path("existing.db"), holding: [items[0]])
        try StoreFiles.sqlite(directory.path("existing.sqlite"), holding: [items[0]])
        let before = ["existing.db", "existing.sqlite"].map { fileBytes(directory.path($0)) }
        let new = try Tool.run(["--from", "gdbm:old.db", "--to", "sqlite:new.sqlite", "--dry-run", "--json"], in: directory.url)
        #expect(new.status == 0, "\(new.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("new.sqlite")))
        let summary = try Self.summary(new)
        #expect(summary["dry_run"] as? Bool == true)
        #expect((summary["totals"] as? [String: Int])?["read"] == items.count)
        #expect((summary["totals"] as? [String: Int])?["written"] == items.count)
        for name in ["existing.db", "existing.sqlite"] {
            // With --if-exists fail, the dry run stops where the real run would, with the same status.
            let failing = try Tool.run(["old.db", name, "--dry-run", "--progress", "never"], in: directory.url)
            #expect(failing.status == 73, "\(failing.stderr)")
            #expect(failing.stderr.contains("nothing was written (dry run)"))
            let skipping = try Tool.run(["old.db", name, "--dry-run", "--if-exists", "skip", "--json"], in: directory.url)
            #expect(skipping.status == 0, "\(skipping.stderr)")
            let totals = try Self.summary(skipping)["totals"] as? [String: Int]
            #expect(totals?["skipped"] == 1 && totals?["written"] == items.count - 1)
        }
        #expect(["existing.db", "existing.sqlite"].map { fileBytes(directory.path($0)) } == before)
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(listing == ["existing.db", "existing.sqlite", "old.db"])
    }

    @Test("an existing SQLite target in rollback-journal mode keeps it through a dry run, a refused run and a real one")
    func journalMode() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = try Self.source(directory)
        let target = directory.path("legacy.sqlite")
        let legacy = try RawDatabase(target)
        try legacy.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'kept');")
        legacy.close()
        func journalMode() throws -> [[RawValue]] {
            let database = try RawDatabase(target)
            defer { database.close() }
            return try database.rows("PRAGMA journal_mode")
        }
        let before = fileBytes(target)
        let dry = try Tool.run(["old.db", "legacy.sqlite", "--dry-run", "--progress", "never"], in: directory.url)
        #expect(dry.status == 0, "\(dry.stderr)")
        let untouched = fileBytes(target) == before
        #expect(untouched, "the dry run changed the target")
        let real = try Tool.run(["old.db", "legacy.sqlite", "--progress", "never"], in: directory.url)
        #expect(real.status == 0, "\(real.stderr)")
        #expect(try journalMode() == [[.text("delete")]])
        #expect(try StoreFiles.contents(.sqlite, target).count == items.count + 1, "the items and the legacy note")
        let after = fileBytes(target)
        let refused = try Tool.run(["old.db", "legacy.sqlite", "--progress", "never"], in: directory.url)
        #expect(refused.status == 73, "\(refused.stderr)")
        let unchanged = fileBytes(target) == after
        #expect(unchanged, "the refused run changed the target")
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(listing == ["legacy.sqlite", "old.db"])
    }

    @Test("--json prints the documented summary; --no-verify says the copy was not verified")
    func json() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = try Self.source(directory)
        let output = try Tool.run(["--from", "gdbm:old.db", "--to", "sqlite:new.sqlite", "--json", "--no-verify"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let summary = try Self.summary(output)
        #expect(Set(summary.keys) == ["source", "target", "dry_run", "verified", "types", "totals", "seconds",
                                      "verification_seconds", "notes", "reshape", "fallbacks", "relations", "exit_status"])
        #expect((summary["fallbacks"] as? [Any])?.isEmpty == true)
        #expect(summary["verified"] as? Bool == false && summary["exit_status"] as? Int == 0)
        let types = summary["types"] as? [[String: Any]] ?? []
        #expect(types.map { $0["item_type"] as? String } == ["Restaurant", "Review"])
        #expect(Set(types.first?.keys.map { $0 } ?? []) == ["item_type", "read", "written", "skipped", "omitted", "bytes",
                                                            "seconds", "verified", "verification_seconds"])
        #expect(types.compactMap { $0["written"] as? Int }.reduce(0, +) == items.count)
        #expect(types.allSatisfy { ($0["bytes"] as? Int ?? 0) > 0 })
        let verified = try Self.summary(try Tool.run(["old.db", "checked.sqlite", "--json"], in: directory.url))
        #expect(verified["verified"] as? Bool == true)
        let verifiedTypes = verified["types"] as? [[String: Any]] ?? []
        #expect(verifiedTypes.allSatisfy { $0["verified"] as? Bool == true && $0["verification_seconds"] is NSNumber })
        #expect((verified["source"] as? [String: Any])?["kind_detected"] as? Bool == true)
        let failed = try Tool.run(["--from", "gdbm:old.db", "--to", "sqlite:new.sqlite", "--json"], in: directory.url)
        #expect(failed.status == 73)
        let failure = try Self.summary(failed)
        #expect(failure["exit_status"] as? Int == 73)
        #expect((failure["error"] as? [String: String])?["code"] == "alreadyExists")
    }

    @Test("--json prints the summary with its error for a usage error too (64), never with a URL's password",
          arguments: [
              (["old.db", "new.db"], "cannot tell which kind of store"),
              (["old.db", "old.db"], "the same file"),
              (["old.db", "new.sqlite", "--batch-size", "0"], "--batch-size must be at least 1"),
              (["old.db", "new.sqlite", "--bogus"], "--bogus"),
              (["old.db", "new.sqlite", "postgresql://app:s3cret@localhost/app"], "unexpected path"),
          ])
    func jsonUsageError(arguments: [String], says: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try Self.source(directory)
        let output = try Tool.run(arguments + ["--json"], in: directory.url)
        #expect(output.status == 64, "\(output.stderr)")
        let summary = try Self.summary(output)
        #expect(summary["exit_status"] as? Int == 64, "\(output.stdout)")
        let error = summary["error"] as? [String: String] ?? [:]
        #expect(error["code"] == "usage" && error["message"]?.contains(says) == true, "\(output.stdout)")
        #expect(error["hint"]?.contains("--help") == true)
        #expect(Set(summary.keys).isSuperset(of: ["source", "target", "types", "totals", "notes", "error"]))
        #expect(!(output.stdout + output.stderr).contains("s3cret"))
        #expect(output.stderr.contains(says), "\(output.stderr)")
    }

    @Test("--progress always draws a bar, never stays silent, auto prints lines off a terminal")
    func progress() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try Self.source(directory)
        let bar = try Tool.run(["--from", "gdbm:old.db", "--to", "sqlite:a.sqlite", "--progress", "always"], in: directory.url)
        #expect(bar.status == 0 && bar.stderr.contains("\r") && bar.stderr.contains("items/s"))
        let silent = try Tool.run(["--from", "gdbm:old.db", "--to", "sqlite:b.sqlite", "--progress", "never"], in: directory.url)
        #expect(silent.status == 0 && silent.stderr.isEmpty)
        let lines = try Tool.run(["--from", "gdbm:old.db", "--to", "sqlite:c.sqlite"], in: directory.url)
        #expect(lines.status == 0 && !lines.stderr.contains("\r") && lines.stderr.contains("copying: 30 of 30 items (100%)"))
    }

    @Test("--help shows the kinds, examples, every exit status in brief and where the full article is")
    func help() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = try Tool.run(["--help"], in: directory.url)
        #expect(output.status == 0)
        for text in ["persist-migrate --from <kind>:<path> --to <kind>:<path>", "gdbm, sqlite, postgresql",
                     "persist-migrate --from gdbm --to sqlite old.db new.sqlite", "'postgresql://app@db.example.com/shop'"] {
            #expect(output.stdout.contains(text), "--help does not mention \(text)")
        }
        // Every status the tool exits with, each followed by what it means.
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let statuses = lines.drop { $0 != "Exit status:" }.dropFirst().prefix { !$0.isEmpty }.joined(separator: " ")
        let listed = statuses.matches(of: /(\d+) +[a-zA-Z]/).compactMap { Int32($0.output.1) }
        #expect(Set(listed) == [0, 64, 65, 66, 69, 73, 74, 75, 77, 130, 143], "\(statuses)")
        // The article it points to exists.
        let article = try #require(output.stdout.firstMatch(of: /\((Sources\/[^)]+\.md)\)/)?.output.1)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(String(article)).path), "\(article)")
    }

    @Test("a misspelled kind in --from or --to is named as the reason the paths after the options are one too many")
    func misspelledKind() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try Self.source(directory)
        for (arguments, option) in [(["--from", "sqlit", "old.db", "new.sqlite"], "--from \"sqlit\""),
                                    (["--from", "gdbm", "--to", "sqlit", "old.db", "new.sqlite"], "--to \"sqlit\"")] {
            let output = try Tool.run(arguments, in: directory.url)
            #expect(output.status == 64)
            #expect(output.stderr.contains("unexpected path \"new.sqlite\""), "\(output.stderr)")
            #expect(output.stderr.contains("\(option) is no kind (the kinds are gdbm, sqlite and postgresql)"),
                    "\(output.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.path("new.sqlite")))
        }
        // A word that is a file's name is a path, as --help says, and no kind is blamed.
        try Data().write(to: directory.url.appendingPathComponent("sqlit"))
        let output = try Tool.run(["--from", "sqlit", "old.db", "new.sqlite"], in: directory.url)
        #expect(output.status == 64 && !output.stderr.contains("is no kind"), "\(output.stderr)")
    }

    @Test("--help on an 80-column terminal fits in about a screen: no line wraps, each example is a command to copy")
    func helpLayout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        let output = try ProductRunner.run("persist-migrate", ["--help"], in: directory.url, environment: environment)
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count <= 60, "--help grew to \(lines.count) lines; the details go to the article")
        for line in lines {
            #expect(line.count <= 80, "a line wider than the terminal: \(line)")
        }
        func section(_ title: String) -> [String] {
            Array(lines.drop { $0 != title }.dropFirst().prefix { !$0.isEmpty })
        }
        let examples = section("Examples:")
        #expect(examples.count >= 3)
        for line in examples {
            #expect(line.hasPrefix("  persist-migrate "), "an example broken across lines: \(line)")
        }
        let statuses = section("Exit status:")
        #expect(!statuses.isEmpty)
        for line in statuses {
            #expect(line.range(of: #"^  [0-9]+ "#, options: .regularExpression) != nil,
                    "an exit status line wrapped out of its column: \(line)")
        }
    }
}
