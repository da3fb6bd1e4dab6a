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
}
