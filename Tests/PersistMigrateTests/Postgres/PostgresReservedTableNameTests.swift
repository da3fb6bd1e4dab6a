import Foundation
import Persist
import PersistTestSupport
import Testing

/// An adopted table named like one of the PostgreSQL store's own objects cannot be recreated under
/// that name: a table `persist_date` would be taken for the type the store writes dates as.
@Suite("persist-migrate refuses to recreate a table under a name the PostgreSQL store keeps", .serialized)
struct PostgresReservedTableNameTests {
    @Test("a legacy table named persist_date exits 65 saying the name is kept, writes nothing, and copies once renamed",
          arguments: [true, false])
    func persistDateTable(withDates: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let events = withDates
            ? [Item(itemType: "Event", id: .int(1), attributes: ["at": .date(Date(timeIntervalSinceReferenceDate: 5.25))])]
            : []
        try StoreFiles.sqlite(directory.path("legacy.sqlite"), holding: events)
        let raw = try RawDatabase(directory.path("legacy.sqlite"))
        try raw.exec("CREATE TABLE persist_date (k TEXT PRIMARY KEY, d REAL); INSERT INTO persist_date VALUES ('a', 1.5);")
        raw.close()

        let refused = try Tool.run(["legacy.sqlite", pg.url, "--progress", "never"], in: directory.url)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("\"persist_date\" cannot be recreated"), "\(refused.stderr)")
        #expect(refused.stderr.contains("keeps that name for its own objects"), "\(refused.stderr)")
        #expect(try pg.sql("SELECT count(*) FROM pg_namespace WHERE nspname = '\(pg.schema)'") == "0")

        let renamed = try Tool.run(["legacy.sqlite", pg.url, "--rename-type", "persist_date=legacy_date", "--progress", "never"],
                                   in: directory.url)
        #expect(renamed.status == 0, "\(renamed.stderr)")
        let legacy = Item(itemType: "legacy_date", id: .string("a"), attributes: ["d": .double(1.5)])
        #expect(try pg.contents() == Set(events + [legacy]))
    }
}
