import Foundation
import Persist
import PersistConformance
import Testing

/// A key of two fields of the other identifier kinds.
private struct TokenKey: Codable, Hashable, Sendable {
    var token: UUID
    var salt: Data
}

private struct Token: DataStoreEntity, Equatable {
    static let itemType = "CodingToken"
    var id: TokenKey
    var label: String
}

/// A key with an optional field.
private struct MaybeKey: Codable, Hashable, Sendable {
    var a: Int
    var b: Int?
}

private struct Maybe: DataStoreEntity {
    static let itemType = "CodingMaybe"
    var id: MaybeKey
}

/// A key struct behind a wrapper that encodes it as a single value, as tagged types do.
private struct Tagged: Codable, Hashable, Sendable {
    var raw: Pair

    struct Pair: Codable, Hashable, Sendable {
        var left: String
        var right: Int64
    }

    init(_ raw: Pair) { self.raw = raw }
    init(from decoder: any Decoder) throws { raw = try decoder.singleValueContainer().decode(Pair.self) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(raw)
    }
}

private struct TaggedEntity: DataStoreEntity, Equatable {
    static let itemType = "CodingTagged"
    var id: Tagged
    var size: Int
}

private struct UnsignedKey: Codable, Hashable, Sendable { var a: UInt64; var b: Int }

private struct Unsigned: DataStoreEntity {
    static let itemType = "CodingUnsigned"
    var id: UnsignedKey
}

@Suite("Struct identifiers and decimals through the entity coders")
struct CompositeIDCodingTests {
    @Test("UUID and Data fields become string and bytes components, in declaration order, and decode back")
    func uuidAndData() throws {
        let token = Token(id: TokenKey(token: UUID(), salt: Data([0, 255])), label: "t")
        let item = try token.makeItem()
        #expect(item.id == ItemID.composite([.string(token.id.token.uuidString), .bytes([0, 255])]))
        #expect(item.attributes == ["label": "t"])
        #expect(try Token(item: item) == token)
    }

    @Test("a nil field, or an unsigned field beyond Int64, is typeMismatch naming the identifier")
    func unfitFields() throws {
        let missing = expectError(.typeMismatch) { try Maybe(id: MaybeKey(a: 1, b: nil)).makeItem() }
        #expect(missing?.message.contains("\"b\"") == true, "\(missing?.message ?? "no error")")
        #expect(try Maybe.itemID(for: MaybeKey(a: 1, b: 2)) == ItemID.composite([1, 2]))
        let unsigned = expectError(.typeMismatch) { try Unsigned.itemID(for: UnsignedKey(a: .max, b: 1)) }
        #expect(unsigned?.message.contains("identifier of Unsigned") == true, "\(unsigned?.message ?? "no error")")
    }

    @Test("a wrapper that encodes the key struct as a single value is stored and read by the struct's fields")
    func wrapped() throws {
        let store = InMemoryDataStore()
        try store.setup()
        defer { try? store.tearDown() }
        let entity = TaggedEntity(id: Tagged(.init(left: "x", right: 9)), size: 3)
        try store.writeSync { accessor in try accessor.insert(entity) }
        #expect(try store.read { try $0.item(ofType: TaggedEntity.itemType, id: ItemID.composite(["x", 9])) }?["size"] == 3)
        for _ in 0..<2 {
            #expect(try store.read { try $0.getAll(TaggedEntity.self) } == [entity])
            #expect(try store.read { try $0.getById(TaggedEntity.self, id: entity.id) } == entity)
        }
    }

    @Test("a composite identifier with more components than the key struct reads is typeMismatch naming the item")
    func tooFewComponents() throws {
        let item = Item(itemType: Token.itemType, id: .composite([.string(UUID().uuidString), .bytes([1]), "c"]), attributes: ["label": "t"])
        let error = expectError(.typeMismatch) { try Token(item: item) }
        #expect(error?.message.contains("CodingToken") == true, "\(error?.message ?? "no error")")
        #expect(error?.message.contains("has 3 components") == true, "\(error?.message ?? "no error")")
    }

    @Test("a Decimal encodes as an exact decimal, NaN included, and every earlier stored form decodes")
    func decimals() throws {
        let money = try #require(Decimal(string: "12345678901234567.89"))
        #expect(try ValueEncoder().encode(money) == .decimal(money))
        #expect(try ValueEncoder().encode(Decimal.nan).decimalValue?.isNaN == true)
        for (stored, expected) in [(Value.decimal(money), money), (.double(1.5), 1.5), (.int(7), 7), (.string("12345678901234567.89"), money)] {
            #expect(try ValueDecoder().decode(Decimal.self, from: stored) == expected)
        }
    }
}
