import Foundation
import Persist
import PersistTestSupport
import Testing

/// The schema record of a native GDBM file when several SQL sources are migrated into it.
@Suite("the schema a native GDBM file carries follows the items it holds")
struct GDBMSchemaRecordTests {
    @Test("a table migrated into a file whose items of that type were all deleted replaces the schema recorded for it")
    func replacedAfterEveryItemWasDeleted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try RawDatabase(directory.path("first.sqlite"))
        try first.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT NOT NULL); INSERT INTO t VALUES (1, 'x');")
        first.close()
        let second = try RawDatabase(directory.path("second.sqlite"))
        try second.exec("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, b INTEGER UNIQUE, a BLOB);
            CREATE INDEX t_b ON t (b);
            INSERT INTO t VALUES (2, 5, NULL), (3, 6, x'01');
            """)
        second.close()
        let there = try Tool.run(["--from", "sqlite:first.sqlite", "--to", "gdbm:middle.db", "--progress", "never"],
                                 in: directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        let middle = StoreKind.gdbm.store(directory.path("middle.db"))
        try middle.setup()
        try middle.writeSync { _ = try $0.deleteAllItems(ofType: "t") }
        try middle.tearDown()
        let again = try Tool.run(["--from", "sqlite:second.sqlite", "--to", "gdbm:middle.db", "--progress", "never"],
                                 in: directory.url)
        #expect(again.status == 0, "\(again.stderr)")

        let back = try Tool.run(["--from", "gdbm:middle.db", "--to", "sqlite:back.sqlite", "--progress", "never"],
                                in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        let original = try RawDatabase(directory.path("second.sqlite"))
        let copy = try RawDatabase(directory.path("back.sqlite"))
        defer {
            original.close()
            copy.close()
        }
        let info = "SELECT * FROM pragma_table_info('t')"
        #expect(try copy.rows(info) == original.rows(info))
        let indexes = "SELECT name, \"unique\", origin FROM pragma_index_list('t') ORDER BY name"
        #expect(try copy.rows(indexes) == original.rows(indexes))
        let rows = "SELECT id, b, typeof(a), a FROM t ORDER BY id"
        #expect(try copy.rows(rows) == original.rows(rows))
    }
}
