import Foundation
import Persist
import PersistConformance
import PersistGDBM
import PersistTestSupport
import Testing

@Suite("The raw layout reads and writes foreign GDBM files pair for pair")
struct RawLayoutTests {
    /// Keys and values another program might have written: NULs, invalid UTF-8, empty values.
    static let foreignPairs: [[UInt8]: [UInt8]] = [
        Array("plain".utf8): Array("text value".utf8),
        [0x00]: [0x00, 0x00],
        [0xFF, 0xFE, 0x00, 0x01]: [0xC3, 0x28, 0xA0, 0xA1],
        Array("empty".utf8): [],
        []: Array("the empty key".utf8),
        Array("nul\u{0}inside".utf8): Array("value\u{0}with\u{0}nuls".utf8),
        [0xC0, 0x80]: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) },
    ]

    /// A foreign file holding ``foreignPairs``, made with the C API.
    static func legacyFile(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("legacy.db")
        try ForeignFile.create(path, pairs: foreignPairs)
        return path
    }

    static func rawStore(_ path: String, readOnly: Bool = false,
                         layout: GDBMDataStore.Options.Layout = .raw()) -> GDBMDataStore {
        GDBMDataStore(path: path, options: .init(readOnly: readOnly, layout: layout, logger: .quiet))
    }

    @Test("every foreign pair reads as an Entry item with the exact key and value bytes")
    func readsForeignPairs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.legacyFile(in: directory)
        let before = fileBytes(path)

        let store = Self.rawStore(path, readOnly: true)
        try store.setup()
        let items = try store.read { accessor in try accessor.items(forRequest: DataStoreRequest(itemType: "Entry")) }
        var read: [[UInt8]: [UInt8]] = [:]
        for item in items {
            guard case .bytes(let key) = item.id, case .bytes(let value)? = item["value"] else {
                Issue.record("unexpected item \(item)")
                continue
            }
            #expect(item.attributes.count == 1)
            read[key] = value
        }
        #expect(read == Self.foreignPairs)
        try store.read { accessor throws in
            #expect(try accessor.itemTypes() == ["Entry"])
            #expect(try accessor.item(ofType: "Entry", id: .bytes([0xFF, 0xFE, 0x00, 0x01]))?["value"]
                == .bytes([0xC3, 0x28, 0xA0, 0xA1]))
            #expect(try accessor.item(ofType: "Entry", id: .bytes([]))?["value"] == .bytes(Array("the empty key".utf8)))
            #expect(try accessor.item(ofType: "Entry", id: "plain") == nil)
            #expect(try accessor.item(ofType: "Other", id: .bytes(Array("plain".utf8))) == nil)
            #expect(try accessor.items(forRequest: DataStoreRequest(itemType: "Other")).isEmpty)
            var request = DataStoreRequest(itemType: "Entry")
            request.filter = .attribute("value").beginsWith(.bytes([0x00]))
            #expect(try accessor.items(forRequest: request).map(\.id) == [.bytes([0x00]), .bytes([0xC0, 0x80])])
            #expect(try accessor.countItems(forRequest: DataStoreRequest(itemType: "Entry")) == Self.foreignPairs.count)
            var unordered = DataStoreRequest(itemType: "Entry")
            unordered.ordering = .unspecified
            #expect(Set(try accessor.items(forRequest: unordered)) == Set(items))
        }
        try store.tearDown()
        #expect(fileBytes(path) == before, "reading changed the file")
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }

    @Test("inserts, replacements and deletes through the raw layout give exactly the intended pairs")
    func writesExactPairs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.legacyFile(in: directory)

        let store = Self.rawStore(path)
        try store.setup()
        try store.writeSync { accessor in
            try accessor.insert(Item(itemType: "Entry", id: .bytes([0x00, 0xFF, 0x00]), attributes: ["value": .bytes([0x80])]))
            try accessor.save(Item(itemType: "Entry", id: .bytes(Array("plain".utf8)), attributes: ["value": .bytes([0, 1, 2])]))
            try accessor.deleteItem(ofType: "Entry", id: .bytes([0x00]))
            let created = try accessor.createItem(ofType: "Entry", id: .bytes([0xFE]))
            created["value"] = .bytes([])
            let empty = try #require(try accessor.mutableVersion(ofItem: Item(itemType: "Entry", id: .bytes(Array("empty".utf8)))))
            empty["value"] = .bytes(Array("now filled".utf8))
        }
        try store.tearDown()

        var expected = Self.foreignPairs
        expected[[0x00, 0xFF, 0x00]] = [0x80]
        expected[Array("plain".utf8)] = [0, 1, 2]
        expected[[0x00]] = nil
        expected[[0xFE]] = []
        expected[Array("empty".utf8)] = Array("now filled".utf8)
        #expect(try ForeignFile.pairs(path) == expected)
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }

    @Test("deleteAllItems empties the file, and a new raw file holds only what was written")
    func deleteAllAndCreate() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.legacyFile(in: directory)
        let store = Self.rawStore(path)
        try store.setup()
        #expect(try store.writeSync { try $0.deleteAllItems(ofType: "Entry") } == Self.foreignPairs.count)
        #expect(try store.writeSync { try $0.deleteAllItems(ofType: "Other") } == 0)
        #expect(try store.read { try $0.itemTypes() } == [])
        try store.tearDown()
        #expect(try ForeignFile.pairs(path).isEmpty)

        let fresh = directory.path("fresh.db")
        let created = Self.rawStore(fresh, layout: .raw(itemType: "Setting", attribute: "data"))
        try created.setup()
        try created.writeSync { accessor in
            try accessor.insert(Item(itemType: "Setting", id: .bytes(Array("k".utf8)), attributes: ["data": .bytes([9])]))
        }
        #expect(try created.read { try $0.itemTypes() } == ["Setting"])
        try created.tearDown()
        #expect(try ForeignFile.pairs(fresh) == [Array("k".utf8): [9]])
    }

    @Test("items the raw layout cannot hold throw typeMismatch and change nothing", arguments: [
        Item(itemType: "Other", id: .bytes([1]), attributes: ["value": .bytes([1])]),
        Item(itemType: "Entry", id: "string id", attributes: ["value": .bytes([1])]),
        Item(itemType: "Entry", id: 7, attributes: ["value": .bytes([1])]),
        Item(itemType: "Entry", id: .bytes([1]), attributes: ["value": "text"]),
        Item(itemType: "Entry", id: .bytes([1]), attributes: ["other": .bytes([1])]),
        Item(itemType: "Entry", id: .bytes([1]), attributes: ["value": .bytes([1]), "extra": .bytes([2])]),
    ])
    func rejectsWhatDoesNotFit(_ item: Item) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.legacyFile(in: directory)
        let store = Self.rawStore(path)
        try store.setup()
        let error = expectError(.typeMismatch) {
            try store.writeSync { accessor in
                try accessor.save(Item(itemType: "Entry", id: .bytes([0x42]), attributes: ["value": .bytes([0x42])]))
                try accessor.save(item)
            }
        }
        #expect(error?.message.contains(path) == true)
        #expect(error?.items == [item.reference])
        try store.tearDown()
        #expect(try ForeignFile.pairs(path) == Self.foreignPairs)
    }

    @Test("invalid raw type or attribute names are refused at setup")
    func invalidNames() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("legacy.db")
        expectError(.invalidArgument) { try Self.rawStore(path, layout: .raw(itemType: "", attribute: "value")).setup() }
        expectError(.invalidArgument) { try Self.rawStore(path, layout: .raw(itemType: "Entry", attribute: "a\u{0}b")).setup() }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
