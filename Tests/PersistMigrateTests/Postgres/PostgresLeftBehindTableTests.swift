import Foundation
import PersistTestSupport
import Testing

/// A PostgreSQL table the copy cannot carry as items stops the run before anything is written,
/// unless `--types` leaves it out.
@Suite("persist-migrate fails, writing nothing, when a PostgreSQL table's rows would be left behind")
struct PostgresLeftBehindTableTests {
    @Test("a table others inherit from, holding rows of its own: 65 naming it; --types leaving it out: 0")
    func inheritedFromFails() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let s = pg.schema
        _ = try pg.sql("""
            CREATE SCHEMA \(s);
            CREATE TABLE \(s).events (id integer PRIMARY KEY, what text);
            CREATE TABLE \(s).audits (who text, PRIMARY KEY (id)) INHERITS (\(s).events);
            CREATE TABLE \(s).plain (id integer PRIMARY KEY, v text);
            INSERT INTO \(s).events VALUES (1, 'own row');
            INSERT INTO \(s).audits VALUES (2, 'inherited', 'ann');
            INSERT INTO \(s).plain VALUES (1, 'x');
            """)
        let run = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("\"events\" (other tables inherit from it"), "\(run.stderr)")
        #expect(run.stderr.contains("no copy.sqlite was created; nothing was written"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("copy.sqlite")))

        let chosen = try Tool.run([pg.url, "copy.sqlite", "--types", "plain,audits", "--progress", "never"], in: directory.url)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdout.contains("(verified)"), "\(chosen.stdout)")
        #expect(!chosen.stdout.contains("\"events\""), "\(chosen.stdout)")
        #expect(try StoreFiles.contents(.sqlite, directory.path("copy.sqlite")).count == 2)
    }
}
