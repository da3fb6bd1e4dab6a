import CGDBM
import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

@Suite("GDBM keeps its relations in the file")
struct GDBMRelationTests {
    static func store(_ path: String, readOnly: Bool = false) -> GDBMDataStore {
        GDBMDataStore(path: path, options: .init(readOnly: readOnly, logger: .quiet))
    }

    static func album(_ id: Int64) -> Item { Item(itemType: "Album", id: .int(id), attributes: ["title": .string("A\(id)")]) }

    static func track(_ id: Int64, album: Int64) -> Item {
        Item(itemType: "Track", id: .int(id), attributes: ["albumId": .int(album)])
    }

    static let byAlbum = DataStoreRelation(itemType: "Track", attributes: ["albumId"], relatedType: "Album", onDelete: .cascade)

    /// The relations of every type the store holds, read as a migration reads them.
    static func relations(_ store: any DataStore) throws -> [DataStoreRelation] {
        try store.read { accessor in
            try ["Album", "Track", "Song", "Disc"].flatMap { try accessor.relations(ofType: $0) }
        }
    }

    /// Stores `record` under the key of Track/`id` through GDBM itself: a record only a scan of
    /// every track reads, and fails on.
    static func damageTrack(_ store: GDBMDataStore, itemType: String = "Track", id: ItemID) throws {
        let key = try GDBMStorageFormat.encodeKey(itemType: itemType, id: id)
        try store.withRawHandle { handle in
            let result = ForeignFile.withDatum(key) { keyDatum in
                ForeignFile.withDatum([0x00, 0x01]) { gdbm_store(handle, keyDatum, $0, GDBM_REPLACE) }
            }
            #expect(result == 0)
        }
    }

    @Test("a relation survives reopening, is in the file as documented, and raises the format version to 3")
    func survivesReopening() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.gdbm")
        let store = Self.store(path)
        try store.setup()
        try seed(store, [Self.album(1), Self.track(10, album: 1)])
        let created = try store.writeSync { accessor in
            try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .cascade)
        }
        #expect(created == Self.byAlbum)
        try store.tearDown()

        let pairs = try ForeignFile.pairs(path)
        #expect(pairs[GDBMStorageFormat.metadataKey] == GDBMStorageFormat.metadataValue(version: 3))
        #expect(pairs[GDBMStorageFormat.relationRecordKey]
            == [0x01, 0x01, 0x12] + Array("Track_albumId_fkey".utf8) + [0x05] + Array("Track".utf8) + [0x01, 0x07]
                + Array("albumId".utf8) + [0x05] + Array("Album".utf8) + [0x02])
        // The relation's index is declared with it.
        let catalog = try GDBMStorageFormat.decodeIndexCatalog(try #require(pairs[GDBMStorageFormat.indexCatalogKey]))
        #expect(catalog.map(\.index) == [DataStoreIndex(itemType: "Track", attributes: ["albumId"], isUnique: false)])

        // Another store object on the file, read-only and then writing, sees it and keeps it.
        let reader = Self.store(path, readOnly: true)
        try reader.setup()
        #expect(try Self.relations(reader) == [Self.byAlbum])
        try reader.tearDown()
        let reopened = Self.store(path)
        try reopened.setup()
        defer { try? reopened.tearDown() }
        #expect(try Self.relations(reopened) == [Self.byAlbum])
        let again = try reopened.writeSync { accessor in
            try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .cascade)
        }
        #expect(again == Self.byAlbum)
        #expect(try Self.relations(reopened) == [Self.byAlbum])
        expectError(.referenceViolation) { try seed(reopened, [Self.track(11, album: 2)]) }
        try reopened.writeSync { accessor in _ = try accessor.deleteItem(ofType: "Album", id: 1) }
        #expect(try reopened.read { try $0.items(forRequest: DataStoreRequest(itemType: "Track")) }.isEmpty)
    }

    @Test("a file with indexes but no relation stays at format version 2")
    func indexesAloneStayVersion2() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.gdbm")
        let store = Self.store(path)
        try store.setup()
        try store.writeSync { accessor in try accessor.ensureIndex(ofType: "Track", on: ["albumId"], unique: false) }
        try store.tearDown()
        let pairs = try ForeignFile.pairs(path)
        #expect(pairs[GDBMStorageFormat.metadataKey] == GDBMStorageFormat.metadataValue(version: 2))
        #expect(pairs[GDBMStorageFormat.relationRecordKey] == nil)
    }

    @Test("a block that declares a relation and then fails leaves no declaration, in the store or the file")
    func failedBlockLeavesNone() throws {
        struct Abandon: Error {}
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.gdbm")
        let store = Self.store(path)
        try store.setup()
        try seed(store, [Self.album(1)])
        #expect(throws: Abandon.self) {
            try store.writeSync { accessor in
                try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .deny)
                #expect(try accessor.relations(ofType: "Track").count == 1)
                throw Abandon()
            }
        }
        // A block that breaks the relation it declared fails whole too.
        expectError(.referenceViolation) {
            try store.writeSync { accessor in
                try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .deny)
                try accessor.insert(Self.track(10, album: 2))
            }
        }
        #expect(try Self.relations(store).isEmpty)
        try seed(store, [Self.track(11, album: 7)])
        try store.tearDown()
        let pairs = try ForeignFile.pairs(path)
        #expect(pairs[GDBMStorageFormat.relationRecordKey] == nil)
        #expect(pairs[GDBMStorageFormat.metadataKey] == GDBMStorageFormat.metadataValue(version: 1))
        try store.setup()
        defer { try? store.tearDown() }
        #expect(try Self.relations(store).isEmpty)
    }

    /// A native file holding Album/1 and Track/10 (of album 1), closed, and the journal of a block
    /// that declared `Track → Album` with `.deny`, as a commit writes it.
    static func interruptedDeclaration(_ path: String) throws -> [UInt8] {
        let store = store(path)
        try store.setup()
        try seed(store, [album(1), track(10, album: 1)])
        try store.tearDown()
        let relation = DataStoreRelation(itemType: "Track", attributes: ["albumId"], relatedType: "Album", onDelete: .deny)
        return GDBMStorageFormat.encodeJournal([
            .store(key: GDBMStorageFormat.relationRecordKey, value: try GDBMStorageFormat.encodeRelationRecord([relation])),
            .store(key: GDBMStorageFormat.metadataKey, value: GDBMStorageFormat.metadataValue(version: 3)),
        ])
    }

    @Test("a crash while declaring leaves the whole declaration (a complete journal) or none (a torn one)")
    func crashLeavesAllOrNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.gdbm")
        let journal = try Self.interruptedDeclaration(path)
        for torn in stride(from: 1, to: journal.count, by: 5).map({ Array(journal.prefix($0)) }) {
            try Data(torn).write(to: URL(fileURLWithPath: path + "-journal"))
            let store = Self.store(path)
            try store.setup()
            #expect(try Self.relations(store).isEmpty)
            try store.writeSync { accessor in _ = try accessor.deleteItem(ofType: "Album", id: 1) }
            try seed(store, [Self.album(1)])
            try store.tearDown()
            #expect(try ForeignFile.pairs(path)[GDBMStorageFormat.relationRecordKey] == nil)
        }
        try Data(journal).write(to: URL(fileURLWithPath: path + "-journal"))
        let store = Self.store(path)
        try store.setup()
        defer { try? store.tearDown() }
        #expect(try Self.relations(store).map(\.onDelete) == [.deny])
        let error = expectError(.referenceViolation) {
            try store.writeSync { accessor in _ = try accessor.deleteItem(ofType: "Album", id: 1) }
        }
        #expect(error?.items.contains(ItemReference(itemType: "Track", id: 10)) == true)
    }

    @Test("cascades and nullifications find the referring items through the relation's index, for one or several attributes")
    func deleteRulesUseTheIndex() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = Self.store(directory.path("store.gdbm"))
        try store.setup()
        defer { try? store.tearDown() }
        try store.writeSync { accessor in
            for album in 1...3 { try accessor.insert(Self.album(Int64(album))) }
            for id in 1...3_000 { try accessor.insert(Self.track(Int64(id), album: Int64(id % 3 + 1))) }
            for album in 1...2 {
                for disc in 1...2 {
                    try accessor.insert(Item(itemType: "Disc", id: .composite([.int(Int64(album)), .int(Int64(disc))])))
                }
            }
            for id in 1...2_000 {
                try accessor.insert(Item(itemType: "Song", id: .int(Int64(id)),
                                         attributes: ["album": .int(Int64(id % 2 + 1)), "disc": .int(Int64(id % 4 / 2 + 1))]))
            }
            try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .cascade)
            try accessor.ensureRelation(ofType: "Song", on: ["album", "disc"], to: "Disc", onDelete: .nullify)
        }
        // Damaged records that only a scan of every track or song would read.
        try Self.damageTrack(store, id: 99_999)
        try Self.damageTrack(store, itemType: "Song", id: 99_999)

        try store.writeSync { accessor in _ = try accessor.deleteItem(ofType: "Album", id: 2) }
        var ofAlbum = DataStoreRequest(itemType: "Track")
        ofAlbum.filter = .attribute("albumId") == 2
        #expect(try store.read { try $0.countItems(forRequest: ofAlbum) } == 0)
        ofAlbum.filter = .attribute("albumId") == 3
        #expect(try store.read { try $0.countItems(forRequest: ofAlbum) } == 1_000)

        let disc = ItemID.composite([.int(1), .int(2)])
        try store.writeSync { accessor in _ = try accessor.deleteItem(ofType: "Disc", id: disc) }
        // Songs of album 1 disc 2 (id % 2 == 0, id % 4 / 2 == 1: id % 4 == 2) lost both attributes.
        let cleared = try store.read { accessor in
            try (1...2_000).filter { $0 % 4 == 2 }.map { try accessor.item(ofType: "Song", id: .int(Int64($0))) }
        }
        #expect(cleared.count == 500)
        #expect(cleared.allSatisfy { $0?["album"] == nil && $0?["disc"] == nil })
        let kept = try store.read { try $0.item(ofType: "Song", id: 1) }
        #expect(kept?["album"] == 2 && kept?["disc"] == 1)
        // The damaged records are still there: a scan meets them.
        var all = DataStoreRequest(itemType: "Track")
        all.filter = .attribute("albumId") > 0
        expectError(.corrupt) { try store.read { try $0.countItems(forRequest: all) } }
    }

    @Test("a damaged relation record is refused with corrupt naming the file; a newer one with unsupported")
    func damagedRecord() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.gdbm")
        let store = Self.store(path)
        try store.setup()
        try store.writeSync { accessor in
            try accessor.insert(Self.album(1))
            try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .cascade)
        }
        try store.tearDown()
        let record = try #require(try ForeignFile.pairs(path)[GDBMStorageFormat.relationRecordKey])
        for (damaged, code) in [(Array(record.dropLast()), DataStoreError.Code.corrupt), (record.dropLast() + [0x09], .corrupt),
                                ([0x02] + record.dropFirst(), .unsupported)] {
            let file = try #require(gdbm_open(path, 0, GDBM_WRITER, 0o644, nil))
            let stored = ForeignFile.withDatum(GDBMStorageFormat.relationRecordKey) { key in
                ForeignFile.withDatum(damaged) { gdbm_store(file, key, $0, GDBM_REPLACE) }
            }
            gdbm_close(file)
            #expect(stored == 0)
            let error = expectError(code) { try Self.store(path).setup() }
            #expect(error?.path == path)
            #expect(error?.message.contains(path) == true && error?.message.contains("relation record") == true,
                    "\(error?.message ?? "")")
        }
    }

    @Test("recovery keeps the relation record, and reports it when GDBM could not recover it")
    func recovery() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.gdbm")
        let store = Self.store(path)
        try store.setup()
        try store.writeSync { accessor in
            try accessor.insert(Self.album(1))
            try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .cascade)
        }
        try store.tearDown()
        #expect(try GDBMDataStore.recover(path: path, keepBackup: false).lostRelationRecord == false)
        try store.setup()
        #expect(try Self.relations(store) == [Self.byAlbum])
        try store.tearDown()

        let file = try #require(gdbm_open(path, 0, GDBM_WRITER, 0o644, nil))
        #expect(ForeignFile.withDatum(GDBMStorageFormat.relationRecordKey) { gdbm_delete(file, $0) } == 0)
        gdbm_close(file)
        #expect(try GDBMDataStore.recover(path: path, keepBackup: false).lostRelationRecord)
        try store.setup()
        defer { try? store.tearDown() }
        #expect(try Self.relations(store).isEmpty)
    }

    @Test("the raw layout keeps no relation in the file; the store object keeps the declarations")
    func rawLayout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("raw.gdbm")
        let store = GDBMDataStore(path: path, options: .init(layout: .raw(), logger: .quiet))
        try store.setup()
        try store.writeSync { accessor in
            try accessor.insert(Item(itemType: "Entry", id: .bytes([1]), attributes: ["value": .bytes([1])]))
            try accessor.ensureRelation(ofType: "Entry", on: ["value"], to: "Entry", onDelete: .deny)
        }
        #expect(try store.read { try $0.relations(ofType: "Entry") }.count == 1)
        expectError(.referenceViolation) {
            try store.writeSync { try $0.insert(Item(itemType: "Entry", id: .bytes([2]), attributes: ["value": .bytes([9])])) }
        }
        try store.tearDown()
        #expect(try ForeignFile.pairs(path) == [[1]: [1]])
    }
}

@Suite("The relation record's bytes")
struct GDBMRelationRecordTests {
    static let relations = [
        DataStoreRelation(itemType: "Track", attributes: ["albumId"], relatedType: "Album", onDelete: .deny),
        DataStoreRelation(itemType: "Line", attributes: ["orderNo", "shop"], relatedType: "Order", onDelete: .cascade,
                          name: "lines"),
        DataStoreRelation(itemType: "Café", attributes: ["owner"], relatedType: "Person", onDelete: .nullify),
    ]

    @Test("a composite relation and every rule round-trip, in declaration order")
    func roundTrip() throws {
        let bytes = try GDBMStorageFormat.encodeRelationRecord(Self.relations)
        #expect(try GDBMStorageFormat.decodeRelationRecord(bytes) == Self.relations)
        #expect(try GDBMStorageFormat.decodeRelationRecord(try GDBMStorageFormat.encodeRelationRecord([])) == [])
        let composite = try GDBMStorageFormat.encodeRelationRecord([Self.relations[1]])
        #expect(composite == [0x01, 0x01, 0x05] + Array("lines".utf8) + [0x04] + Array("Line".utf8) + [0x02, 0x07]
            + Array("orderNo".utf8) + [0x04] + Array("shop".utf8) + [0x05] + Array("Order".utf8) + [0x02])
    }

    @Test("an engine's own delete action cannot be kept in a GDBM file")
    func engineAction() throws {
        let relation = DataStoreRelation(itemType: "T", attributes: ["a"], relatedType: "U", onDelete: .engineAction("SET DEFAULT"))
        let error = expectError(.invalidArgument) { try GDBMStorageFormat.encodeRelationRecord([relation]) }
        #expect(error?.message.contains("T_a_fkey") == true && error?.message.contains("SET DEFAULT") == true)
    }

    @Test("every cut-short record, an unknown rule, a repeated name or attribute, and version 0 are corrupt; version 2 unsupported")
    func malformed() throws {
        let bytes = try GDBMStorageFormat.encodeRelationRecord(Self.relations)
        for length in 0..<bytes.count {
            expectError(.corrupt) { try GDBMStorageFormat.decodeRelationRecord(Array(bytes.prefix(length))) }
        }
        expectError(.corrupt) { try GDBMStorageFormat.decodeRelationRecord(bytes + [0x00]) }
        let one = try GDBMStorageFormat.encodeRelationRecord([Self.relations[0]])
        for rule: UInt8 in [0x00, 0x04, 0xFF] {
            expectError(.corrupt) { try GDBMStorageFormat.decodeRelationRecord(one.dropLast() + [rule]) }
        }
        expectError(.corrupt) { try GDBMStorageFormat.decodeRelationRecord([0x00] + one.dropFirst()) }
        expectError(.unsupported) { try GDBMStorageFormat.decodeRelationRecord([0x02] + one.dropFirst()) }
        let twice = try GDBMStorageFormat.encodeRelationRecord([Self.relations[0], Self.relations[0]])
        expectError(.corrupt) { try GDBMStorageFormat.decodeRelationRecord(twice) }
        let repeated = DataStoreRelation(itemType: "T", attributes: ["a", "a"], relatedType: "U", onDelete: .deny)
        expectError(.corrupt) { try GDBMStorageFormat.decodeRelationRecord(try GDBMStorageFormat.encodeRelationRecord([repeated])) }
    }
}
