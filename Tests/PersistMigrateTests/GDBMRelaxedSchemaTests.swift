import Foundation
import Persist
import PersistTestSupport
import Testing

/// A native GDBM file whose items, edited through the store, no longer meet the table it recorded:
/// the way to SQLite loosens that table rather than fail, and says so.
@Suite("persist-migrate from a native GDBM file into SQLite loosens the recorded table to the edited items")
struct GDBMRelaxedSchemaTests {
    @Test("a NOT NULL column that an item lacks, or every item does, comes back nullable, with a note")
    func notNullAnItemLacks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = try EditedGDBMFixtures.migrated(EditedGDBMFixtures.notNull, in: directory,
                                                    edit: EditedGDBMFixtures.breakNotNull)

        let out = try Tool.run(["--from", "gdbm:middle.db", "--to", "sqlite:back.sqlite", "--progress", "never"],
                               in: directory.url)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("note: the copy of \"t\" does not carry NOT NULL on \"a\" (an item of the file lacks "
                                    + "a value there), NOT NULL on \"b\" ("), "\(out.stdout)")
        #expect(!out.stdout.contains("NOT NULL on \"c\""), "\(out.stdout)")
        #expect(try StoreFiles.contents(.sqlite, directory.path("back.sqlite")) == items)
        let copy = try RawDatabase(directory.path("back.sqlite"))
        defer { copy.close() }
        #expect(try copy.rows("SELECT name, type, \"notnull\" FROM pragma_table_info('t') ORDER BY cid") == [
            [.text("id"), .text("INTEGER"), .integer(0)], [.text("a"), .text("TEXT"), .integer(0)],
            [.text("b"), .text("INTEGER"), .integer(0)], [.text("c"), .text("TEXT"), .integer(1)],
        ])
    }

    @Test("a UNIQUE column, constraint or index two items share values in comes back without it, an index as a plain one")
    func uniqueTwoItemsShare() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = try EditedGDBMFixtures.migrated(EditedGDBMFixtures.unique, in: directory,
                                                    edit: EditedGDBMFixtures.breakUnique)

        let out = try Tool.run(["--from", "gdbm:middle.db", "--to", "sqlite:back.sqlite", "--progress", "never"],
                               in: directory.url)
        #expect(out.status == 0, "\(out.stderr)")
        for relaxed in ["UNIQUE on \"u\"", "UNIQUE (\"x\", \"y\")", "UNIQUE in the index \"t_v\""] {
            #expect(out.stdout.contains(relaxed), "\(out.stdout)")
        }
        for kept in ["UNIQUE on \"n\"", "UNIQUE (\"x\", \"w\")", "\"t_w\""] {
            #expect(!out.stdout.contains(kept), "\(out.stdout)")
        }
        #expect(try StoreFiles.contents(.sqlite, directory.path("back.sqlite")) == items)
        let copy = try RawDatabase(directory.path("back.sqlite"))
        defer { copy.close() }
        let indexes = try copy.rows("""
            SELECT group_concat(i.name, ','), l."unique" FROM pragma_index_list('t') AS l, pragma_index_info(l.name) AS i
            GROUP BY l.name ORDER BY l.origin, l.name
            """)
        #expect(indexes == [[.text("v"), .integer(0)], [.text("w"), .integer(1)],
                            [.text("n"), .integer(1)], [.text("x,w"), .integer(1)]], "\(indexes)")
    }
}
