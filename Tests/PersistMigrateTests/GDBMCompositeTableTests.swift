import Foundation
import Persist
import PersistGDBM
import PersistSQL
import PersistTestSupport
import Testing

/// Tables keyed by several columns, or by none, through a native GDBM file: the schema record
/// keeps `primaryKey` and `keyless`, composite identifiers keep their key tag, and a raw layout,
/// which has no form for them, refuses them by name.
@Suite("a native GDBM file carries composite-key and keyless tables; a raw one refuses composite ids")
struct GDBMCompositeTableTests {
    static let pairs = TableDescription(
        itemType: "pairs", key: nil,
        columns: [.init(name: "a", declaredType: "INTEGER", notNull: true), .init(name: "b", declaredType: "TEXT", notNull: true),
                  .init(name: "c", declaredType: "REAL")],
        withoutRowid: true, primaryKey: ["a", "b"])
    static let log = TableDescription(
        itemType: "log", key: nil, columns: [.init(name: "at", declaredType: "TEXT"), .init(name: "what", declaredType: "TEXT")],
        isKeyless: true)

    static func items() throws -> [Item] {
        try [
            Item(itemType: "pairs", id: ItemID(components: [1, "x"]), attributes: ["c": 1.5]),
            Item(itemType: "pairs", id: ItemID(components: [1, "y"]), attributes: [:]),
            Item(itemType: "pairs", id: ItemID(components: [2, "x"]), attributes: ["c": -0.0]),
            Item(itemType: "log", id: 1, attributes: ["at": "09:00", "what": "start"]),
            Item(itemType: "log", id: 2, attributes: ["at": "09:00", "what": "start"]),
        ]
    }

    /// A native file holding `items()` and the records of both tables, as a migration from SQL writes them.
    static func make(_ path: String) throws {
        let store = GDBMDataStore(path: path)
        try store.setup()
        defer { try? store.tearDown() }
        let items = try items()
        _ = try #require(store.writeScheduler).bulkWriteSync { accessor, bulk in
            let recreating = try #require(bulk?.schemaRecreating)
            #expect(try recreating.recreate(pairs))
            #expect(try recreating.recreate(log))
            for item in items { try accessor.insert(item) }
            return TransactionStatus.commit
        }
    }

    /// The table descriptions a GDBM file's schema record holds, read with the GDBM C API.
    static func recorded(_ path: String) throws -> [TableDescription] {
        let key: [UInt8] = [0x00] + Array("schemas".utf8)
        let record = try #require(try ForeignFile.pairs(path)[key])
        guard case .array(let values) = try BinaryValueCoding.decode(record) else {
            Issue.record("the schema record is not an array")
            return []
        }
        return try values.map { try #require(TableDescription(value: $0)) }
    }

    @Test("the record gives back primaryKey and keyless, and a GDBM → GDBM copy keeps them and the composite ids")
    func recordAndIdsSurviveACopy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.make(directory.path("a.db"))
        let first = try Self.recorded(directory.path("a.db"))
        #expect(first == [Self.pairs, Self.log])
        #expect(first.first?.primaryKey == ["a", "b"])
        #expect(first.last?.isKeyless == true)

        let run = try Tool.run(["--from", "gdbm:a.db", "--to", "gdbm:b.db", "--progress", "never"], in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("(verified)"), "\(run.stdout)")
        // The key columns' NOT NULL held: the items carry their values in the identifier.
        #expect(Set(try Self.recorded(directory.path("b.db")).map(\.itemType)) == ["pairs", "log"])
        #expect(try Self.recorded(directory.path("b.db")).first { $0.itemType == "pairs" } == Self.pairs)
        #expect(try Self.recorded(directory.path("b.db")).first { $0.itemType == "log" } == Self.log)
        #expect(try StoreFiles.contents(.gdbm, directory.path("b.db")) == Set(Self.items()))
        let store = GDBMDataStore(path: directory.path("b.db"))
        try store.setup()
        defer { try? store.tearDown() }
        let found = try store.read { try $0.item(ofType: "pairs", id: ItemID(components: [1, "y"])) }
        #expect(found?.id.components == [1, "y"])
    }

    @Test("a relaxed NOT NULL of a key column would be a bug: the identifier holds its values")
    func keyColumnsNeverLookMissing() {
        var relaxation = TableRelaxation(Self.pairs)
        relaxation.observe(id: .composite([1, "x"])) { _ in nil }
        #expect(relaxation.result.notCarried.isEmpty)
        #expect(relaxation.result.description == Self.pairs)
    }

    @Test("a raw GDBM target cannot hold composite ids: 65 naming the item and the native layout, nothing created")
    func rawTargetRefusesCompositeIDs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.make(directory.path("a.db"))
        let run = try Tool.run(["--from", "gdbm:a.db", "--to", "gdbm:raw.dbm", "--to-layout", "raw", "--raw-type", "pairs",
                                "--types", "pairs", "--progress", "never"], in: directory.url)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("its identifier is composite (2 values of a key over several columns)"), "\(run.stderr)")
        #expect(run.stderr.contains("--to-layout native"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("raw.dbm")))
    }
}
