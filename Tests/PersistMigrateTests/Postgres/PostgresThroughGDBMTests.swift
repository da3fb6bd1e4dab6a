import Foundation
import Persist
import PersistTestSupport
import Testing

/// SQLite → native GDBM, items edited there, → PostgreSQL: the schema the GDBM file carries meets
/// items that no longer match it.
@Suite("persist-migrate from a native GDBM file whose items were edited after it recorded their table", .serialized)
struct PostgresThroughGDBMTests {
    @Test("an item holding a new attribute and a value its column's type cannot keep: the column falls back, the attribute gets a column")
    func newAttributeBesideAMisfit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let raw = try RawDatabase(directory.path("legacy.sqlite"))
        try raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, n INTEGER); INSERT INTO t VALUES (1, 'p', 1), (2, 'r', 2);")
        raw.close()
        let there = try Tool.run(["--from", "sqlite:legacy.sqlite", "--to", "gdbm:middle.db", "--progress", "never"],
                                 in: directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        let edited = Item(itemType: "t", id: 1, attributes: ["a": "p", "n": "text", "extra": .date(Date(timeIntervalSinceReferenceDate: 5))])
        let middle = StoreKind.gdbm.store(directory.path("middle.db"))
        try middle.setup()
        try middle.writeSync { try $0.save(edited) }
        try middle.tearDown()

        let out = try Tool.run(["--from", "gdbm:middle.db", "--to", pg.url, "--progress", "never", "--json"], in: directory.url)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("\"column\":\"n\""), "\(out.stdout)")
        #expect(try pg.contents() == [edited, Item(itemType: "t", id: 2, attributes: ["a": "r", "n": 2])])
    }
}
