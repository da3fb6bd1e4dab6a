import CGDBM
import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

@Suite("GDBM keeps its indexes in the file")
struct GDBMIndexTests {
    static func restaurant(_ id: Int64, _ city: String, rating: Int64 = 3) -> Item {
        Item(itemType: "Restaurant", id: .int(id), attributes: ["city": .string(city), "rating": .int(rating)])
    }

    /// Every pair of the closed file.
    static func pairs(_ path: String) throws -> [[UInt8]: [UInt8]] {
        try ForeignFile.pairs(path)
    }

    /// A closed file at `path` with an index on Restaurant.city holding `items`, and its store.
    static func indexedFile(_ path: String, _ items: [Item]) throws -> GDBMDataStore {
        let store = GDBMDataStore(path: path, options: .init(logger: .quiet))
        try store.setup()
        try store.writeSync { accessor in try accessor.ensureIndex(ofType: "Restaurant", on: ["city"], unique: false) }
        try seed(store, items)
        try store.tearDown()
        return store
    }

    @Test("the catalog and the entries are in the file as documented, and the format record names version 2")
    func format() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.gdbm")
        let store = GDBMDataStore(path: path, options: .init(logger: .quiet))
        try store.setup()
        try seed(store, [Self.restaurant(1, "Leeds"), Self.restaurant(2, "York"), Self.restaurant(3, "Leeds")])
        try store.tearDown()
        #expect(try Self.pairs(path)[GDBMStorageFormat.metadataKey] == GDBMStorageFormat.metadataValue(version: 1))
        try store.setup()
        try store.writeSync { accessor in try accessor.ensureIndex(ofType: "Restaurant", on: ["city"], unique: false) }
        try store.writeSync { accessor in try accessor.deleteItem(ofType: "Restaurant", id: 2) }
        try store.tearDown()
        let pairs = try Self.pairs(path)
        #expect(pairs[GDBMStorageFormat.metadataKey] == GDBMStorageFormat.metadataValue(version: 2))
        let catalog = try GDBMStorageFormat.decodeIndexCatalog(try #require(pairs[GDBMStorageFormat.indexCatalogKey]))
        #expect(catalog.map(\.number) == [1])
        #expect(catalog.map(\.index) == [DataStoreIndex(itemType: "Restaurant", attributes: ["city"], isUnique: false)])
        #expect(pairs[GDBMStorageFormat.indexCatalogKey]
            == [0x01, 0x01, 0x01, 0x0A] + Array("Restaurant".utf8) + [0x00, 0x01, 0x04] + Array("city".utf8))
        let leeds = GDBMStorageFormat.indexEntryKey(number: 1, values: ["Leeds"])
        #expect(leeds == [0x00, 0x78, 0x01, 0x07, 0x05] + Array("Leeds".utf8))
        #expect(try GDBMStorageFormat.decodeIndexEntry(try #require(pairs[leeds])) == [1, 3])
        #expect(pairs[leeds] == [0x01, 0x02, 0x09, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x09, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x03])
        // York lost its only item: its entry is gone.
        #expect(pairs[GDBMStorageFormat.indexEntryKey(number: 1, values: ["York"])] == nil)
        #expect(pairs.keys.filter { $0.first == 0 }.count == 3)
    }

    @Test("a catalog holding an index number no store gives out is corrupt, not a crash at the next ensureIndex")
    func implausibleIndexNumber() throws {
        for number in [UInt64.max, UInt64(UInt32.max) + 1, UInt64(UInt32.max)] {
            var catalog: [UInt8] = [0x01, 0x01]
            BinaryValueCoding.appendVarint(number, to: &catalog)
            catalog += [0x01] + Array("T".utf8) + [0x00, 0x01, 0x01] + Array("a".utf8)
            expectError(.corrupt) { try GDBMStorageFormat.decodeIndexCatalog(catalog) }
        }
    }

    @Test("recover(path:) rebuilds the indexes from the recovered items: a lost entry comes back, an entry of a lost item goes")
    func recoveryRebuildsIndexes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.gdbm")
        let store = try Self.indexedFile(path, [Self.restaurant(1, "Leeds"), Self.restaurant(2, "York"), Self.restaurant(3, "Leeds")])
        // Damage as a recovery may leave it: Leeds's entry lost, and York's only item lost.
        let leeds = GDBMStorageFormat.indexEntryKey(number: 1, values: ["Leeds"])
        let york = GDBMStorageFormat.indexEntryKey(number: 1, values: ["York"])
        let file = try #require(gdbm_open(path, 0, GDBM_WRITER, 0o644, nil))
        for key in [leeds, try GDBMStorageFormat.encodeKey(itemType: "Restaurant", id: 2)] {
            #expect(ForeignFile.withDatum(key) { gdbm_delete(file, $0) } == 0)
        }
        gdbm_close(file)

        try GDBMDataStore.recover(path: path, keepBackup: false)
        let pairs = try Self.pairs(path)
        #expect(try GDBMStorageFormat.decodeIndexEntry(try #require(pairs[leeds])) == [1, 3])
        #expect(pairs[york] == nil)
        try store.setup()
        defer { try? store.tearDown() }
        var inLeeds = DataStoreRequest(itemType: "Restaurant")
        inLeeds.filter = .attribute("city") == "Leeds"
        #expect(try store.read { try $0.items(forRequest: inLeeds) }.map(\.id) == [1, 3])
    }

    @Test("a damaged index entry that a write block changes gives corrupt naming the file and the entry; nothing is stored")
    func damagedEntryOnWrite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.gdbm")
        let store = try Self.indexedFile(path, [Self.restaurant(1, "Leeds")])
        let leeds = GDBMStorageFormat.indexEntryKey(number: 1, values: ["Leeds"])
        let file = try #require(gdbm_open(path, 0, GDBM_WRITER, 0o644, nil))
        #expect(ForeignFile.withDatum(leeds) { key in ForeignFile.withDatum([0x01, 0x09]) { gdbm_store(file, key, $0, GDBM_REPLACE) } } == 0)
        gdbm_close(file)
        let before = try Self.pairs(path)

        try store.setup()
        let error = expectError(.corrupt) { try store.writeSync { try $0.insert(Self.restaurant(2, "Leeds")) } }
        #expect(error?.path == path && error?.message.contains(path) == true
                    && error?.message.contains(leeds.map { String(format: "%02x", $0) }.joined()) == true, "\(error?.message ?? "")")
        #expect(try store.read { try $0.item(ofType: "Restaurant", id: 2) } == nil)
        try store.tearDown()
        #expect(try Self.pairs(path) == before)
    }

    @Test("an equality query on an indexed attribute reads only the items its entry lists")
    func noScan() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = GDBMDataStore(path: directory.path("store.gdbm"), options: .init(logger: .quiet))
        try store.setup()
        defer { try? store.tearDown() }
        try store.writeSync { accessor in
            try accessor.ensureIndex(ofType: "Restaurant", on: ["city"], unique: false)
            for id in 1...200 { try accessor.insert(Self.restaurant(Int64(id), id % 3 == 0 ? "Leeds" : "York", rating: Int64(id % 5))) }
        }
        // A damaged record that only a scan of every item would read.
        let key = try GDBMStorageFormat.encodeKey(itemType: "Restaurant", id: 9_999)
        try store.withRawHandle { handle in
            let result = ForeignFile.withDatum(key) { keyDatum in ForeignFile.withDatum([0x00, 0x01]) { gdbm_store(handle, keyDatum, $0, GDBM_REPLACE) } }
            #expect(result == 0)
        }
        var leeds = DataStoreRequest(itemType: "Restaurant")
        leeds.filter = .attribute("city") == "Leeds" && .attribute("rating") >= 2
        leeds.setSort(byKey: "rating", ascending: false)
        let found = try store.read { accessor in
            (try accessor.items(forRequest: leeds), try accessor.countItems(forRequest: leeds))
        }
        #expect(found.0.count == found.1)
        #expect(found.0.count == (1...200).filter { $0 % 3 == 0 && $0 % 5 >= 2 }.count)
        #expect(found.0.allSatisfy { $0["city"] == "Leeds" })
        // Inside a write block the entry merges the block's own changes.
        try store.writeSync { accessor in
            try accessor.insert(Self.restaurant(500, "Leeds", rating: 4))
            try accessor.deleteItem(ofType: "Restaurant", id: 3)
            try accessor.save(Self.restaurant(6, "York"))
            let inBlock = try accessor.items(forRequest: leeds).map(\.id)
            #expect(inBlock.contains(500))
            #expect(!inBlock.contains(3))
            #expect(!inBlock.contains(6))
        }
        // The same filter on an attribute without an index scans, and meets the damaged record.
        var rated = DataStoreRequest(itemType: "Restaurant")
        rated.filter = .attribute("rating") == 4
        expectError(.corrupt) { try store.read { accessor in try accessor.items(forRequest: rated) } }
    }

    @Test("a unique index survives reopening and refuses duplicates, also for numbers equal across kinds")
    func unique() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.gdbm")
        let store = GDBMDataStore(path: path, options: .init(logger: .quiet))
        try store.setup()
        try store.writeSync { accessor in
            try accessor.ensureIndex(ofType: "Seat", on: ["number"], unique: true)
            try accessor.insert(Item(itemType: "Seat", id: "a", attributes: ["number": 1]))
        }
        try store.tearDown()
        try store.setup()
        defer { try? store.tearDown() }
        let error = expectError(.uniqueViolation) {
            try seed(store, [Item(itemType: "Seat", id: "b", attributes: ["number": 1.0])])
        }
        #expect(error?.path == path)
        #expect(error?.items == [ItemReference(itemType: "Seat", id: "b"), ItemReference(itemType: "Seat", id: "a")])
        try store.writeSync { accessor in
            try accessor.deleteItem(ofType: "Seat", id: "a")
            try accessor.insert(Item(itemType: "Seat", id: "b", attributes: ["number": 1.0]))
        }
        #expect(try allItems(store, "Seat").map(\.id) == ["b"])
    }

    @Test("the raw layout keeps no indexes in the file, yet enforces declared unique ones")
    func rawLayout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("raw.gdbm")
        let store = GDBMDataStore(path: path, options: .init(layout: .raw(), logger: .quiet))
        try store.setup()
        try store.writeSync { accessor in
            try accessor.ensureIndex(ofType: "Entry", on: ["value"], unique: true)
            try accessor.insert(Item(itemType: "Entry", id: .bytes([1]), attributes: ["value": .bytes([7])]))
        }
        expectError(.uniqueViolation) {
            try seed(store, [Item(itemType: "Entry", id: .bytes([2]), attributes: ["value": .bytes([7])])])
        }
        try store.tearDown()
        #expect(try Self.pairs(path) == [[1]: [7]])
    }
}
