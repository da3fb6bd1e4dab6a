import Foundation
import Persist
import PersistTestSupport
import Testing

/// `--rename-type`, `--rename-attribute` and `--drop-attribute` keep the adopted schema they
/// reshape, SQLite to SQLite and through native GDBM, checked with plain SQL.
extension SchemaFaithfulToolTests {
    static let reshapeRules = ["--rename-type", "note=memo", "--rename-attribute", "note.titel=title",
                               "--drop-attribute", "note.flags", "--drop-attribute", "note.owner"]
    /// `LegacyNotes`'s table after ``reshapeRules``.
    static let reshapedColumns = ["id INTEGER PRIMARY KEY", "title TEXT NOT NULL", "body TEXT", "team TEXT NOT NULL"]
    static let reshapedIndexes = ["INDEX note_titel (title, body)", "UNIQUE (title)", "UNIQUE INDEX note_body (body)"]

    func legacyNotes(in directory: TemporaryDirectory) throws {
        let raw = try RawDatabase(directory.path("legacy.sqlite"))
        try raw.exec(LegacyNotes.sqlite)
        raw.close()
    }

    @Test("persist-migrate legacy.sqlite new.sqlite with reshape rules: the renamed table and column, the dropped column's index and UNIQUE constraint left out, as the summary notes")
    func reshapedSchema() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try legacyNotes(in: directory)
        let output = try Tool.run(["legacy.sqlite", "new.sqlite", "--progress", "never"] + Self.reshapeRules, in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        for note in LegacyNotes.droppedNotes { #expect(output.stdout.contains("note: " + note), "\(output.stdout)") }
        #expect(output.stdout.contains("(verified)"))
        let copy = try RawDatabase(directory.path("new.sqlite"))
        defer { copy.close() }
        #expect(try copy.columns(of: "memo") == Self.reshapedColumns)
        #expect(try copy.indexes(of: "memo") == Self.reshapedIndexes)
        #expect(try copy.rows("SELECT id, title, body, team FROM memo ORDER BY id")
            == [[.integer(1), .text("hello"), .text("first"), .text("red")], [.integer(2), .text("world"), .null, .text("red")]])
    }

    @Test("a rule that names the key column leaves the table to be made from the items, as the --json notes say")
    func reshapeNamingKeyNoted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try legacyNotes(in: directory)
        let output = try Tool.run(["legacy.sqlite", "new.sqlite", "--json", "--drop-attribute", "note.id"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        #expect(summary?["notes"] as? [String] == [
            "--drop-attribute note.id matched no item of the source",
            "the table \"note\" is made from its items, not recreated from the source's schema: --drop-attribute note.id "
                + "names its key column \"id\", which holds the items' identifiers and is no attribute, so the rule matches no item",
        ])
        let copy = try RawDatabase(directory.path("new.sqlite"))
        defer { copy.close() }
        #expect(try copy.indexes(of: "note").allSatisfy { !$0.contains("note_") })
    }

    @Test("SQLite → native GDBM with reshape rules → SQLite gives back the reshaped schema")
    func reshapedThroughGDBM() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try legacyNotes(in: directory)
        let there = try Tool.run(["legacy.sqlite", "middle.gdbm", "--progress", "never"] + Self.reshapeRules, in: directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        let back = try Tool.run(["middle.gdbm", "back.sqlite", "--progress", "never"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        let copy = try RawDatabase(directory.path("back.sqlite"))
        defer { copy.close() }
        #expect(try copy.columns(of: "memo") == Self.reshapedColumns)
        #expect(try copy.indexes(of: "memo") == Self.reshapedIndexes)
    }
}
