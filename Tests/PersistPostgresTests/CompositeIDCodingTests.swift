@testable import PersistPostgres
import Persist
import PersistConformance
import Testing

@Suite("Composite identifiers in created PostgreSQL tables")
struct CompositeIDCodingTests {
    static let ids: [ItemID] = [
        .int(.min), .int(-1), .int(0), .int(7), .int(.max), .string(""), .string("a"), .string("a\u{0}"), .string("b"),
        .bytes([]), .bytes([0]), .bytes([0, 1]), .bytes([1]),
        .composite([.int(-5), .int(1)]), .composite([.int(1), .int(2)]), .composite([.int(1), .int(2), .int(0)]),
        .composite([.int(1), .int(10)]), .composite([.int(1), .string("")]), .composite([.int(1), .string("a")]),
        .composite([.int(1), .string("a"), .int(1)]), .composite([.int(1), .string("a\u{0}")]),
        .composite([.int(1), .string("ab")]), .composite([.int(1), .bytes([0])]), .composite([.int(2), .int(0)]),
        .composite([.string("a"), .int(3)]), .composite([.string("a\u{0}"), .int(0)]), .composite([.bytes([]), .int(0)]),
        .composite([.bytes([0, 0]), .bytes([255])]),
    ]

    @Test("the mixed key bytes of identifiers compare as the identifiers do, and read back as they are")
    func order() throws {
        let encoded = Self.ids.map(MixedValueCoding.encodeID)
        for (id, bytes) in zip(Self.ids, encoded) {
            #expect(try MixedValueCoding.decodeID(ArraySlice(bytes)) == id)
        }
        for i in Self.ids.indices {
            for j in Self.ids.indices {
                #expect((Self.ids[i] < Self.ids[j]) == encoded[i].lexicographicallyPrecedes(encoded[j]),
                        "\(Self.ids[i]) and \(Self.ids[j])")
            }
        }
    }

    @Test("bytes that are not a composite identifier are corrupt")
    func corrupt() {
        for bytes: [UInt8] in [[9], [9, 2, 3], [9, 4, 97, 0], [9, 4, 97, 0, 1, 0, 0, 2, 3], [9, 7, 1]] {
            #expect(throws: DecodingFailure.self) { try MixedValueCoding.decodeID(ArraySlice(bytes)) }
        }
    }

    @Test("a created table takes composite identifiers beside others, widening its key, in identifier order")
    func createdTable() throws {
        try withPostgresStore { store, _ throws in
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "Line", id: 3, attributes: ["n": 1]))
                try accessor.insert(Item(itemType: "Line", id: .composite([.int(1), .string("b")]), attributes: ["n": 2]))
                try accessor.insert(Item(itemType: "Line", id: .composite([.int(1), .string("a")]), attributes: ["n": 3]))
                try accessor.insert(Item(itemType: "Line", id: "x", attributes: ["n": 4]))
                try accessor.insert(Item(itemType: "Pair", id: .composite([.string("k"), .bytes([0, 1])])))
            }
            #expect(try allItems(store, "Line").map(\.id)
                == [3, "x", .composite([.int(1), .string("a")]), .composite([.int(1), .string("b")])])
            let found = try store.read { try $0.item(ofType: "Line", id: .composite([.int(1), .string("b")])) }
            #expect(found?.attributes["n"] == 2)
            #expect(try allItems(store, "Pair").map(\.id) == [.composite([.string("k"), .bytes([0, 1])])])
            #expect(try store.writeSync { try $0.deleteItem(ofType: "Line", id: .composite([.int(1), .string("a")])) })
            #expect(try allItems(store, "Line").count == 3)
        }
    }
}
