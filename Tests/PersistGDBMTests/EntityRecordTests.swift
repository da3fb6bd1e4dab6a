import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

/// Typed writes encode entity rows straight into records; the records they leave must be the
/// records the item path leaves, byte for byte.
@Suite("Typed entities write the same GDBM records as items")
struct EntityRecordTests {
    /// The records of the native-layout file at `path` whose keys are of `itemType`, by the rest
    /// of the key (the identifier).
    private static func records(_ path: String, of itemType: String) throws -> [[UInt8]: [UInt8]] {
        let prefix = [UInt8(itemType.utf8.count)] + Array(itemType.utf8)
        var records: [[UInt8]: [UInt8]] = [:]
        for (key, record) in try ForeignFile.pairs(path) where key.starts(with: prefix) {
            records[Array(key.dropFirst(prefix.count))] = record
        }
        return records
    }

    @Test("the typed path and the item path leave identical records under identical keys")
    func identicalRecords() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("entities.gdbm")
        let store = GDBMDataStore(path: path, options: .init(logger: .quiet))
        try store.setup()
        try EntityDifferentialTests.run(on: store, seed: DifferentialTests.seed)
        try store.tearDown()

        let typed = try Self.records(path, of: TypedTwin.itemType)
        #expect(typed.count >= EntityDifferentialTests.sampleCount / 2)
        #expect(typed == (try Self.records(path, of: ItemTwin.itemType)))
    }

    /// A pair of a raw-layout file as an entity: the key's bytes and the value's.
    struct Entry: DataStoreEntity, Equatable {
        static let itemType = "Entry"
        var id: Data
        var value: Data
    }

    @Test("raw-layout files take the general path: entities of the raw type round-trip, others fail as items do")
    func rawLayout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("raw.db")
        let store = GDBMDataStore(path: path, options: .init(layout: .raw(), logger: .quiet))
        try store.setup()
        let entries = [Entry(id: Data([0, 1]), value: Data("one".utf8)), Entry(id: Data("k".utf8), value: Data())]
        try store.writeSync { accessor in
            try accessor.insert(entries[0])
            try accessor.save(entries[1])
        }
        #expect(try store.read { try $0.getAll(Entry.self) } == entries)
        #expect(try store.read { try $0.getById(Entry.self, id: Data("k".utf8)) } == entries[1])
        var generator = SeededGenerator(seed: 3)
        let sample = EntitySample<TypedTwin>.random(number: 1, using: &generator)
        let typed = expectError(.typeMismatch) { try store.writeSync { try $0.insert(sample) } }
        let general = expectError(.typeMismatch) { try store.writeSync { try $0.insert(sample.makeItem()) } }
        #expect(typed?.message == general?.message)
        try store.tearDown()
        #expect(try ForeignFile.pairs(path) == [[0, 1]: Array("one".utf8), Array("k".utf8): []])
    }

    private struct Marker: DataStoreEntity, Equatable { static let itemType = "Marker"; var id: Int }

    @Test("a damaged record fails a typed read of a model that reads only its identifier, as it fails the item read")
    func damagedRecordOfIdentifierOnlyModel() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("damaged.gdbm")
        let store = GDBMDataStore(path: path, options: .init(logger: .quiet))
        try store.setup()
        try store.writeSync { accessor in try accessor.insert(Marker(id: 1)) }
        try store.tearDown()
        // Version 1, one attribute, then nothing: the entry is cut short.
        try ForeignFile.store(path, key: try GDBMStorageFormat.encodeKey(itemType: Marker.itemType, id: 1), value: [1, 1, 0xFF])
        try store.setup()
        defer { try? store.tearDown() }
        let general = expectError(.corrupt) {
            try store.read { accessor in try accessor.items(forRequest: DataStoreRequest(itemType: Marker.itemType)) }
        }
        let typed = expectError(.corrupt) { try store.read { accessor in try accessor.getAll(Marker.self) } }
        let byID = expectError(.corrupt) { try store.read { accessor in try accessor.getById(Marker.self, id: 1) } }
        #expect(typed?.message == general?.message && byID?.message == general?.message)
    }
}
