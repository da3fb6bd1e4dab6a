import Foundation
import Persist
import PersistTestSupport
import Testing

/// SQLite → native GDBM, items edited there past the table's constraints, → PostgreSQL: the
/// recreated table is loosened to the items rather than the migration fail, and the notes say so.
@Suite("persist-migrate from a native GDBM file into PostgreSQL loosens the recorded table to the edited items", .serialized)
struct PostgresRelaxedThroughGDBMTests {
    @Test("a NOT NULL column that an item lacks, or every item does, comes back nullable, with a note")
    func notNullAnItemLacks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let items = try EditedGDBMFixtures.migrated(EditedGDBMFixtures.notNull, in: directory,
                                                    edit: EditedGDBMFixtures.breakNotNull)

        let out = try Tool.run(["--from", "gdbm:middle.db", "--to", pg.url, "--progress", "never"], in: directory.url)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("NOT NULL on \"a\""), "\(out.stdout)")
        #expect(out.stdout.contains("NOT NULL on \"b\""), "\(out.stdout)")
        #expect(try pg.contents() == items)
        let notNull = try pg.sql("""
            SELECT string_agg(attname || '=' || attnotnull, ',' ORDER BY attnum) FROM pg_attribute
            WHERE attrelid = '"\(pg.schema)"."t"'::regclass AND attnum > 0 AND NOT attisdropped
            """)
        #expect(notNull == "id=true,a=false,b=false,c=true")
    }

    @Test("a UNIQUE column, constraint or index two items share values in comes back without it, an index as a plain one")
    func uniqueTwoItemsShare() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let items = try EditedGDBMFixtures.migrated(EditedGDBMFixtures.unique, in: directory,
                                                    edit: EditedGDBMFixtures.breakUnique)

        let out = try Tool.run(["--from", "gdbm:middle.db", "--to", pg.url, "--progress", "never"], in: directory.url)
        #expect(out.status == 0, "\(out.stderr)")
        for relaxed in ["UNIQUE on \"u\"", "UNIQUE (\"x\", \"y\")", "UNIQUE in the index \"t_v\""] {
            #expect(out.stdout.contains(relaxed), "\(out.stdout)")
        }
        #expect(try pg.contents() == items)
        let unique = try pg.sql("""
            SELECT string_agg(columns || '=' || indisunique, ',' ORDER BY columns) FROM (
                SELECT i.indisunique, string_agg(a.attname, '+' ORDER BY k.ord) AS columns
                FROM pg_index i CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                WHERE i.indrelid = '"\(pg.schema)"."t"'::regclass AND NOT i.indisprimary
                GROUP BY i.indexrelid, i.indisunique) AS found
            """)
        #expect(unique == "n=true,v=false,w=true,x+w=true")
    }
}
