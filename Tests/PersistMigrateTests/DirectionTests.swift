import Foundation
import Persist
import PersistTestSupport
import Testing

@Suite("persist-migrate copies every item in every direction")
struct DirectionTests {
    @Test("a native GDBM store to a new SQLite database, verified")
    func gdbmToSQLite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = StoreFiles.items()
        try StoreFiles.gdbm(directory.path("old.db"), holding: items)
        let source = fileBytes(directory.path("old.db"))
        let output = try Tool.run(["--from", "gdbm:old.db", "--to", "sqlite:new.sqlite", "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("(verified)"))
        #expect(try StoreFiles.contents(.sqlite, directory.path("new.sqlite")) == Set(items))
        #expect(fileBytes(directory.path("old.db")) == source)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test("an empty store to a new SQLite database: nothing to copy, and nothing left beside it")
    func emptyToSQLite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try StoreFiles.gdbm(directory.path("empty.db"), holding: [])
        let output = try Tool.run(["--from", "gdbm:empty.db", "--to", "sqlite:new.sqlite", "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(listing == ["empty.db", "new.sqlite"])
        #expect(try StoreFiles.contents(.sqlite, directory.path("new.sqlite")).isEmpty)
    }

    @Test("an SQLite database to a new native GDBM store, verified")
    func sqliteToGDBM() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let items = StoreFiles.items()
        try StoreFiles.sqlite(directory.path("app.sqlite"), holding: items)
        let source = fileBytes(directory.path("app.sqlite"))
        let output = try Tool.run(["--from", "sqlite:app.sqlite", "--to", "gdbm:app.db", "--batch-size", "7"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try StoreFiles.contents(.gdbm, directory.path("app.db")) == Set(items))
        #expect(fileBytes(directory.path("app.sqlite")) == source)
    }

    @Test("a foreign SQLite database to GDBM, item for item as the SQLite store reads it")
    func foreignSQLiteToGDBM() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try MigrateFixtures.foreignSQLite(directory.path("legacy.sqlite"))
        let source = fileBytes(directory.path("legacy.sqlite"))
        let expected = try StoreFiles.contents(.sqlite, directory.path("legacy.sqlite"))
        #expect(fileBytes(directory.path("legacy.sqlite")) == source)
        let output = try Tool.run(["--from", "sqlite:legacy.sqlite", "--to", "gdbm:copy.db"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try StoreFiles.contents(.gdbm, directory.path("copy.db")) == expected)
        #expect(expected.count == 12)
        #expect(fileBytes(directory.path("legacy.sqlite")) == source)
    }

    @Test("a foreign raw GDBM file to SQLite, one item per pair")
    func rawGDBMToSQLite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pairs: [[UInt8]: [UInt8]] = [[0, 1, 2]: [], Array("plain".utf8): Array("value".utf8), [0xff, 0xfe]: [0, 0, 0]]
        try ForeignFile.create(directory.path("legacy.dbm"), pairs: pairs)
        let source = fileBytes(directory.path("legacy.dbm"))
        let output = try Tool.run(
            ["--from", "gdbm:legacy.dbm", "--from-layout", "raw", "--raw-type", "Entry", "--to", "sqlite:legacy.sqlite"],
            in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let copied = try StoreFiles.contents(.sqlite, directory.path("legacy.sqlite"))
        #expect(copied == Set(pairs.map { Item(itemType: "Entry", id: .bytes($0.key), attributes: ["value": .bytes($0.value)]) }))
        #expect(fileBytes(directory.path("legacy.dbm")) == source)
    }

    @Test("the FromGDBM guide's command: a positional raw file, detected, to a native GDBM store of Session items")
    func guideRawGDBMToNative() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pairs: [[UInt8]: [UInt8]] = [Array("a1b2".utf8): Array("ada".utf8), [0xff, 0]: [0, 1]]
        try ForeignFile.create(directory.path("sessions.dbm"), pairs: pairs)
        let output = try Tool.run(["sessions.dbm", "--to", "gdbm:sessions.db", "--raw-type", "Session", "--progress", "never"],
                                  in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("read in the raw layout, each key/value pair an item of type Session"), "\(output.stdout)")
        let copied = try StoreFiles.contents(.gdbm, directory.path("sessions.db"))
        #expect(copied == Set(pairs.map { Item(itemType: "Session", id: .bytes($0.key), attributes: ["value": .bytes($0.value)]) }))
    }
}

@Suite("Foreign files survive a copy to the other kind and back")
struct ForeignRoundTripTests {
    @Test("a foreign SQLite database to GDBM and back keeps every row and storage class")
    func sqliteRoundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try MigrateFixtures.foreignSQLite(directory.path("legacy.sqlite"))
        let there = try Tool.run(["--from", "sqlite:legacy.sqlite", "--to", "gdbm:middle.db"], in: directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        let back = try Tool.run(["--from", "gdbm:middle.db", "--to", "sqlite:back.sqlite"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        let original = try MigrateFixtures.foreignRows(directory.path("legacy.sqlite"), keys: [
            "people": "id", "tags": "code", "events": "rowid", "odd \"name\"": "\"key col\"",
        ])
        // The tables come back as they were, key columns included: the schemas travel in the GDBM file.
        let copy = try MigrateFixtures.foreignRows(directory.path("back.sqlite"), keys: [
            "people": "id", "tags": "code", "events": "rowid", "odd \"name\"": "\"key col\"",
        ])
        #expect(original.count == 9)
        for (column, rows) in original {
            #expect(copy[column] == rows, "column \(column)")
        }
    }

    @Test("a raw GDBM file to SQLite and back is the same, pair for pair")
    func rawRoundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var pairs: [[UInt8]: [UInt8]] = [[]: Array("empty key".utf8), [0]: [], [0xc3, 0x28]: [0xff], Array("k\u{0}ey".utf8): [0, 0]]
        for index in 0..<200 { pairs[[UInt8(index), UInt8(255 - index), 0]] = (0..<(index % 17)).map { UInt8(($0 * index) % 256) } }
        try ForeignFile.create(directory.path("legacy.dbm"), pairs: pairs)
        let there = try Tool.run(
            ["--from", "gdbm:legacy.dbm", "--from-layout", "raw", "--to", "sqlite:middle.sqlite"], in: directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        let back = try Tool.run(
            ["--from", "sqlite:middle.sqlite", "--to", "gdbm:back.dbm", "--to-layout", "raw"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try ForeignFile.pairs(directory.path("back.dbm")) == pairs)
    }
}
