import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

/// A model whose top-level keys are a dictionary's, listed through `allKeys`.
private struct Bag: DataStoreEntity, Equatable {
    static let itemType = "Bag"
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var id: Int
    var tags: [String: Int]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        id = try container.decode(Int.self, forKey: Key(stringValue: "id"))
        var tags: [String: Int] = [:]
        for key in container.allKeys where key.stringValue != "id" {
            tags[key.stringValue] = try container.decode(Int.self, forKey: key)
        }
        self.tags = tags
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(id, forKey: Key(stringValue: "id"))
        for (key, value) in tags { try container.encode(value, forKey: Key(stringValue: key)) }
    }
}

@Suite("Typed reads of damaged rows fail as item reads do")
struct EntityReadErrorTests {
    /// A store holding `item`, in whose row legacy code then ran `damage`, filling a column with
    /// what its recorded kind forbids.
    private func withDamaged(_ item: Item, _ damage: String, _ body: (SQLiteDataStore) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("damaged.sqlite")
        let writer = SQLiteDataStore(path: path, options: quietOptions())
        try writer.setup()
        try writer.writeSync { try $0.insert(item) }
        try writer.tearDown()
        let raw = try RawDatabase(path)
        try raw.exec(damage)
        raw.close()
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        try body(store)
    }

    /// The error of reading every item of `itemType`, which a typed read must match.
    private func itemReadError(_ store: SQLiteDataStore, _ itemType: String) -> DataStoreError? {
        expectError(.corrupt) { try store.read { accessor in try accessor.items(forRequest: DataStoreRequest(itemType: itemType)) } }
    }

    @Test("a model listing allKeys of a row it cannot read gets the item path's error, not an entity missing keys")
    func allKeysOfDamagedRow() throws {
        try withDamaged(Item(itemType: Bag.itemType, id: 1, attributes: ["a": 1, "b": "text"]), #"UPDATE "Bag" SET "b" = 42"#) { store in
            let general = itemReadError(store, Bag.itemType)
            let typed = expectError(.corrupt) { try store.read { accessor in try accessor.getAll(Bag.self) } }
            #expect(typed?.message == general?.message)
        }
    }

    private struct Narrow: DataStoreEntity, Equatable { static let itemType = "Narrowed"; var id: Int; var name: String }

    @Test("a damaged column the model does not read fails a typed read as it fails the item read")
    func damagedUnreadColumn() throws {
        let wide = Item(itemType: Narrow.itemType, id: 1, attributes: ["name": "n", "extra": "e"])
        try withDamaged(wide, #"UPDATE "Narrowed" SET "extra" = 42"#) { store in
            let general = itemReadError(store, Narrow.itemType)
            let typed = expectError(.corrupt) { try store.read { accessor in try accessor.getAll(Narrow.self) } }
            let byID = expectError(.corrupt) { try store.read { accessor in try accessor.getById(Narrow.self, id: 1) } }
            #expect(typed?.message == general?.message && byID?.message == general?.message)
        }
    }

    @Test("TEXT that is not valid UTF-8 fails item and typed reads as damage, never read with replacement characters")
    func invalidUTF8() throws {
        let note = Item(itemType: Narrow.itemType, id: 1, attributes: ["name": "n"])
        try withDamaged(note, #"UPDATE "Narrowed" SET "name" = CAST(x'ff61' AS TEXT)"#) { store in
            let general = itemReadError(store, Narrow.itemType)
            #expect(general?.message.contains("not valid UTF-8") == true)
            let typed = expectError(.corrupt) { try store.read { accessor in try accessor.getAll(Narrow.self) } }
            #expect(typed?.message == general?.message)
        }
        // A key of such text names no identifier either.
        try withDamaged(note, #"UPDATE "Narrowed" SET "persist_id" = CAST(x'fe' AS TEXT)"#) { store in
            let error = itemReadError(store, Narrow.itemType)
            #expect(error?.message.contains("not valid UTF-8") == true)
        }
    }

    @Test("text is checked as UTF-8 whatever its length and wherever its first non-ASCII byte falls")
    func utf8CheckAtEveryPosition() throws {
        // Lengths around the eight-byte words ASCII text is checked in, with one invalid byte, or
        // one two-byte character, at each position.
        var cases: [(bytes: [UInt8], valid: Bool)] = []
        for length in [1, 7, 8, 9, 15, 16, 17, 24] {
            for position in 0..<length {
                var invalid = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                invalid[position] = 0xFF
                cases.append((invalid, false))
                var accented = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                accented.replaceSubrange(position...position, with: [0xC3, 0xA9])
                cases.append((accented, true))
            }
        }
        cases.append(([0x61, 0x00, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68], true))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("text.sqlite")
        let writer = SQLiteDataStore(path: path, options: quietOptions())
        try writer.setup()
        try writer.writeSync { accessor in
            for id in cases.indices { try accessor.insert(Narrow(id: id, name: "placeholder")) }
        }
        try writer.tearDown()
        let raw = try RawDatabase(path)
        for (id, textCase) in cases.enumerated() {
            let hex = textCase.bytes.map { String(format: "%02x", $0) }.joined()
            try raw.exec(#"UPDATE "Narrowed" SET "name" = CAST(x'\#(hex)' AS TEXT) WHERE "persist_id" = \#(id)"#)
        }
        raw.close()
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        defer { try? store.tearDown() }
        for (id, textCase) in cases.enumerated() {
            if textCase.valid {
                let expected = String(validating: textCase.bytes, as: UTF8.self)
                let typed = try store.read { try $0.getById(Narrow.self, id: id) }
                let item = try store.read { try $0.item(ofType: Narrow.itemType, id: .int(Int64(id))) }
                #expect(typed?.name == expected && item?["name"] == expected.map { .string($0) }, "case \(id)")
            } else {
                let typed = expectError(.corrupt) { try store.read { try $0.getById(Narrow.self, id: id) } }
                #expect(typed?.message.contains("not valid UTF-8") == true, "case \(id)")
            }
        }
    }
}
