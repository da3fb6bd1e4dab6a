import Foundation
import Testing

@testable import Persist

@Suite("Value")
struct ValueTests {
    @Test("literals build the matching kinds")
    func literals() {
        let int: Value = 4
        let double: Value = 4.5
        let bool: Value = true
        let string: Value = "Pizza"
        let array: Value = [1, "a"]
        let object: Value = ["a": 1]
        #expect(int == .int(4) && double == .double(4.5) && bool == .bool(true) && string == .string("Pizza"))
        #expect(array == .array([.int(1), .string("a")]))
        #expect(object == .object(["a": .int(1)]))
        #expect([int, double, bool, string, array, object].map(\.kind) == [.int, .double, .bool, .string, .array, .object])
    }

    @Test("equality is identity: kinds must match, doubles bit for bit, NaNs equal")
    func identity() {
        #expect(Value.int(1) != Value.double(1))
        #expect(Value.double(0) != Value.double(-0.0))
        #expect(Value.double(.nan) == Value.double(-.nan))
        #expect(Value.double(.nan) == Value.double(.signalingNaN))
        #expect(Value.date(Date(timeIntervalSinceReferenceDate: .nan)) == .date(Date(timeIntervalSinceReferenceDate: .nan)))
        #expect(Value.string("\u{e9}") != Value.string("e\u{301}"))
        #expect(Value.array([.double(.nan)]) == Value.array([.double(.nan)]))
    }

    @Test("fuzzer finding: object keys compare by their bytes, so equal objects encode alike")
    func objectKeysByBytes() {
        let composed: Value = ["a": .null, "\u{e9}": .null]
        let decomposed: Value = ["a": .null, "e\u{301}": .null]
        #expect(composed != decomposed)
        #expect(BinaryValueCoding.encode(composed) != BinaryValueCoding.encode(decomposed))
        #expect(composed == ["\u{e9}": .null, "a": .null])
        #expect(Value.object(["\u{e9}": 1]) != .object(["\u{e9}": 2]))
        #expect(Value.object(["\u{e9}": 1]) != .object(["\u{e9}": 1, "b": 1]))
        #expect(Value.array([composed]) != .array([decomposed]))
        let set: Set<Value> = [composed, decomposed, ["a": .null, "\u{e9}": .null]]
        #expect(set.count == 2)
    }

    @Test("hashing agrees with equality")
    func hashing() {
        let set: Set<Value> = [.double(.nan), .double(-.nan), .double(0), .double(-0.0), .string("\u{e9}"), .string("e\u{301}")]
        #expect(set.count == 5)
    }

    @Test("accessors return the payload of their own kind only")
    func accessors() {
        #expect(Value.int(3).intValue == 3 && Value.int(3).doubleValue == nil)
        #expect(Value.bytes([1]).bytesValue == [1] && Value.string("x").stringValue == "x")
        #expect(Value.null.isNull && !Value.bool(false).isNull)
    }

    @Test("description is readable")
    func description() {
        #expect(Value.object(["b": 1, "a": [true, .null]]).description == "{\"a\": [true, null], \"b\": 1}")
        #expect(Value.bytes([0, 255]).description == "<00ff>")
    }

    @Test("a reference writes a short identifier whole and a long one as its start and end, with its length")
    func referenceDescription() {
        #expect(ItemReference(itemType: "Note", id: "n1").description == "Note/\"n1\"")
        #expect(ItemReference(itemType: "Note", id: .int(.min)).description == "Note/-9223372036854775808")
        let key = ItemReference(itemType: "Entry", id: .bytes(Array(repeating: 0xAB, count: 300) + [0x01])).description
        #expect(key == "Entry/<" + String(repeating: "ab", count: 32) + "…" + String(repeating: "ab", count: 7) + "01> (301 bytes)")
        let name = ItemReference(itemType: "Note", id: .string(String(repeating: "é", count: 100))).description
        #expect(name.hasPrefix("Note/\"éé") && name.hasSuffix("éé\" (200 bytes of UTF-8)") && name.count < 110, "\(name)")
    }
}

@Suite("Item and ItemID")
struct ItemTests {
    @Test("an invalid attribute name of an item names the item and lists it")
    func invalidAttributeNamesItem() throws {
        let item = Item(itemType: "Note", id: "n1", attributes: ["": 1])
        let error = try #require(throws: DataStoreError.self) { try NameRules.validate(item) }
        #expect(error.code == .invalidArgument && error.items == [item.reference])
        #expect(error.message == "an attribute of Note/\"n1\" has an empty name")
        let nul = try #require(throws: DataStoreError.self) {
            try NameRules.validate(Item(itemType: "Note", id: .int(2), attributes: ["a\u{0}b": 1]))
        }
        #expect(nul.message == "the attribute name \"a\\0b\" of Note/2 contains a NUL character", "\(nul.message)")
    }

    @Test("items drop null attributes")
    func nullsDropped() {
        var item = Item(itemType: "T", id: 1, attributes: ["a": .null, "b": 2])
        #expect(item.attributes == ["b": 2])
        item["b"] = .null
        item["c"] = "x"
        item["c"] = nil
        #expect(item.attributes.isEmpty)
    }

    @Test("identifiers order integers, then strings by bytes, then bytes")
    func identifierOrder() {
        let ids: [ItemID] = [.bytes([0]), .string("b"), .int(5), .string("B"), .int(-1), .bytes([]), .string("é")]
        #expect(ids.sorted() == [.int(-1), .int(5), .string("B"), .string("b"), .string("é"), .bytes([]), .bytes([0])])
        #expect(ItemID.int(5) != ItemID.string("5"))
    }

    @Test("generated identifiers are UUID strings, all different")
    func generated() {
        let ids = (0..<100).map { _ in ItemID.generate() }
        #expect(Set(ids).count == 100)
        #expect(ids.allSatisfy { if case .string(let s) = $0 { UUID(uuidString: s) != nil } else { false } })
    }
}

@Suite("DataStoreError")
struct DataStoreErrorTests {
    @Test("codes match with ~= and descriptions name the path and engine details")
    func matching() {
        let error = DataStoreError(.locked, "the file is in use", path: "/tmp/x.db", engineCode: 11, engineMessage: "busy")
        switch error as any Error {
        case DataStoreError.locked: break
        default: Issue.record("~= did not match")
        }
        #expect(!(DataStoreError.notFound ~= error))
        #expect(error.description == "locked: the file is in use (file: /tmp/x.db) [engine code 11: busy]")
        #expect(error.localizedDescription == error.description)
        let server = DataStoreError(.io, "the server went away", path: "postgresql://app@db:5432/shop?schema=public")
        #expect(server.description == "io: the server went away (server: postgresql://app@db:5432/shop?schema=public)")
    }
}

@Suite("Nesting limits")
struct NestingTests {
    static func nested(_ depth: Int) -> Value {
        var value: Value = "leaf"
        for level in 0..<depth { value = level.isMultiple(of: 2) ? [value] : ["k": value] }
        return value
    }

    @Test("nestingDepth counts arrays and objects")
    func depth() {
        #expect(Value.int(1).nestingDepth == 0)
        #expect(Value.array([]).nestingDepth == 1)
        #expect(Self.nested(7).nestingDepth == 7)
    }

    @Test("every store refuses values nested deeper than the encoding can read back")
    func refused() throws {
        let store = InMemoryDataStore()
        try store.setup()
        let deepest = Item(itemType: "T", id: 1, attributes: ["v": Self.nested(BinaryValueCoding.maximumDepth)])
        try store.writeSync { accessor in try accessor.insert(deepest) }
        let tooDeep = Item(itemType: "T", id: 2, attributes: ["v": Self.nested(BinaryValueCoding.maximumDepth + 1)])
        #expect(throws: DataStoreError.self) { try store.writeSync { accessor in try accessor.insert(tooDeep) } }
        #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "T")) } == 1)
    }
}
