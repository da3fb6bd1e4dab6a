import Foundation
import PersistTestSupport
import Testing

@Suite("persist-migrate names the foreign tables of a PostgreSQL source it does not copy")
struct PostgresForeignTableNoteTests {
    @Test("a foreign table's rows are not copied, and the summary says so")
    func foreignTableIsNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let server = "fdw_" + pg.schema.suffix(12)
        _ = try pg.sql("""
            CREATE SCHEMA \(pg.schema);
            CREATE EXTENSION IF NOT EXISTS file_fdw;
            CREATE SERVER \(server) FOREIGN DATA WRAPPER file_fdw;
            CREATE FOREIGN TABLE \(pg.schema).imported (id integer, line text) SERVER \(server) OPTIONS (filename '/dev/null');
            CREATE TABLE \(pg.schema).t (id integer PRIMARY KEY);
            INSERT INTO \(pg.schema).t VALUES (1);
            """)
        defer { _ = try? pg.sql("DROP SERVER IF EXISTS \(server) CASCADE") }
        let text = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("note: the source's table \"imported\" was not copied: a foreign table, whose rows another server holds"),
                "\(text.stdout)")
    }
}
