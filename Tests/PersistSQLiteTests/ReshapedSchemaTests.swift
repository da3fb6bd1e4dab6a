import Foundation
import Persist
import PersistTestSupport
import Testing

/// A reshape keeps the adopted schema it reshapes: the table and columns renamed, dropped columns
/// left out with the indexes and UNIQUE constraints that list them, checked with plain SQL.
extension SchemaRoundTripTests {
    /// Migrates ``LegacyNotes/sqlite`` with `rules` and returns the report and the copy, which the caller closes.
    func migrateNotes(_ rules: [MigrationReshape.Rule], in directory: TemporaryDirectory,
                      atomic: Bool = false) throws -> (MigrationReport, RawDatabase) {
        let source = directory.path("legacy-\(atomic).db")
        let raw = try RawDatabase(source)
        try raw.exec(LegacyNotes.sqlite)
        raw.close()
        let target = directory.path("copy-\(atomic).db")
        var options = MigrationOptions()
        options.reshape = MigrationReshape(rules)
        options.atomic = atomic
        let report = try migrate(source, target, options: options)
        #expect(report.written == 2 && report.verified)
        return (report, try RawDatabase(target))
    }

    @Test("a renamed type gets the source's table under its new name: columns, key, NOT NULL, UNIQUE and indexes")
    func reshapeRenamesTable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (report, copy) = try migrateNotes([.renameType("note", to: "memo")], in: directory)
        defer { copy.close() }
        #expect(report.schemaNotes.isEmpty)
        #expect(try copy.columns(of: "memo") == ["flags INTEGER NOT NULL", "id INTEGER PRIMARY KEY", "titel TEXT NOT NULL",
                                                 "body TEXT", "team TEXT NOT NULL", "owner TEXT"])
        #expect(try copy.indexes(of: "memo") == ["INDEX note_flags (flags)", "INDEX note_titel (titel, body)",
                                                 "UNIQUE (team, owner)", "UNIQUE (titel)", "UNIQUE INDEX note_body (body)"])
        #expect(try copy.rows("SELECT count(*) FROM sqlite_schema WHERE tbl_name = 'note'") == [[.integer(0)]])
    }

    @Test("a renamed attribute renames its column in the table, its UNIQUE constraint and its index, atomic or in batches")
    func reshapeRenamesColumn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for atomic in [false, true] {
            let (report, copy) = try migrateNotes([.renameAttribute("titel", ofType: "note", to: "title")], in: directory,
                                                  atomic: atomic)
            defer { copy.close() }
            #expect(report.schemaNotes.isEmpty)
            #expect(try copy.columns(of: "note") == ["flags INTEGER NOT NULL", "id INTEGER PRIMARY KEY", "title TEXT NOT NULL",
                                                     "body TEXT", "team TEXT NOT NULL", "owner TEXT"], "atomic: \(atomic)")
            #expect(try copy.indexes(of: "note") == ["INDEX note_flags (flags)", "INDEX note_titel (title, body)",
                                                     "UNIQUE (team, owner)", "UNIQUE (title)", "UNIQUE INDEX note_body (body)"])
            #expect(try copy.rows("SELECT id FROM note WHERE title = 'world'") == [[.integer(2)]])
        }
    }

    @Test("a dropped attribute takes its column, its index and the two-column UNIQUE constraint with it, never narrowed")
    func reshapeDropsColumn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (report, copy) = try migrateNotes([.dropAttribute("flags", ofType: "note"), .dropAttribute("owner", ofType: "note")],
                                              in: directory)
        defer { copy.close() }
        #expect(try copy.columns(of: "note") == ["id INTEGER PRIMARY KEY", "titel TEXT NOT NULL", "body TEXT",
                                                 "team TEXT NOT NULL"])
        // UNIQUE (team) would have refused the second row, which shares the first's team.
        #expect(try copy.indexes(of: "note") == ["INDEX note_titel (titel, body)", "UNIQUE (titel)",
                                                 "UNIQUE INDEX note_body (body)"])
        #expect(try copy.rows("SELECT id, team FROM note ORDER BY id") == [[.integer(1), .text("red")], [.integer(2), .text("red")]])
        #expect(report.schemaNotes == LegacyNotes.droppedNotes)
    }

    @Test("a rule that names the key column matches no item, and leaves the table to be made from the items, as the report says")
    func reshapeNamingKey() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let rule = MigrationReshape.Rule.renameAttribute("id", ofType: "note", to: "ident")
        let (report, copy) = try migrateNotes([rule, .renameAttribute("titel", ofType: "note", to: "title")], in: directory)
        defer { copy.close() }
        #expect(report.unusedRules == [rule])
        #expect(try copy.indexes(of: "note").allSatisfy { !$0.contains("note_") })
        #expect(try copy.rows("SELECT title FROM note ORDER BY title") == [[.text("hello")], [.text("world")]])
        #expect(report.schemaNotes == [
            "the table \"note\" is made from its items, not recreated from the source's schema: --rename-attribute "
                + "note.id=ident names its key column \"id\", which holds the items' identifiers and is no attribute, "
                + "so the rule matches no item",
        ])
    }
}
