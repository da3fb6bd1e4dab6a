import Foundation
import PersistTestSupport
import Testing

/// PostgreSQL tells `"Name"` from `name`; SQLite takes them for one column name.
@Suite("persist-migrate: columns only case tells apart, from PostgreSQL to SQLite")
struct PostgresCaseColumnTests {
    @Test("two columns that differ only in case exit 65 saying so, with a --rename-attribute hint, and create nothing")
    func refusedWithHint() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        try pg.sql("""
            CREATE SCHEMA \(pg.schema);
            CREATE TABLE \(pg.schema).t (id integer PRIMARY KEY, "Name" text, name text);
            INSERT INTO \(pg.schema).t VALUES (1, 'Upper', 'lower');
            """)
        let output = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(output.status == 65, "\(output.stderr)")
        #expect(output.stderr.contains("its columns \"Name\" and \"name\" differ only in case, which SQLite takes for one "
                                       + "name"), "\(output.stderr)")
        #expect(output.stderr.contains("--rename-attribute TYPE.COLUMN=NEW"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("copy.sqlite")))

        let renamed = try Tool.run([pg.url, "copy.sqlite", "--progress", "never", "--rename-attribute", "t.Name=title"],
                                   in: directory.url)
        #expect(renamed.status == 0, "\(renamed.stderr)")
        let copy = try RawDatabase(directory.path("copy.sqlite"))
        defer { copy.close() }
        #expect(try copy.rows("SELECT id, title, name FROM t") == [[.integer(1), .text("Upper"), .text("lower")]])
    }
}
