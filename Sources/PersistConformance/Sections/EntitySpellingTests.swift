import Foundation
import Persist
import Testing

/// A model whose keys are spelled in one Unicode form; the items it reads were written with
/// another spelling of the same names.
struct Spelled: DataStoreEntity, Equatable {
    static let itemType = "Spelled"
    var id: Int
    /// Stored as `"cafe\u{301}"` (decomposed).
    var café: String?
    /// Stored as `"\u{212A}"` (KELVIN SIGN, whose canonical form is the letter K).
    var kelvin: Double?

    enum CodingKeys: String, CodingKey {
        case id
        case café = "caf\u{E9}"
        case kelvin = "K"
    }
}

/// A model whose top-level keys are a dictionary's, so that two entities may spell one name two
/// ways; stored as the twin's item type.
struct Respelled<Twin: EntitySampleTwin>: DataStoreEntity, Equatable {
    static var itemType: String { Twin.itemType }
    var id: Int
    var fields: [String: Int]

    private enum CodingKeys: String, CodingKey { case id }

    init(id: Int, fields: [String: Int]) {
        self.id = id
        self.fields = fields
    }

    init(from decoder: any Decoder) throws {
        id = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .id)
        fields = try [String: Int](from: decoder).filter { $0.key != "id" }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try fields.encode(to: encoder)
    }
}

/// Typed entities take the spellings of one name that Swift finds equal for that name, as
/// `init(item:)` does (its item's attributes are a Swift dictionary).
enum EntitySpellingTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("a model reads attributes stored under another Unicode spelling of its keys, on every read, as init(item:) does",
                        group: .entities) { context in
            let store = try context.makeStore()
            let stored = [
                Item(itemType: Spelled.itemType, id: 1, attributes: ["cafe\u{301}": "decomposed", "\u{212A}": 1.5]),
                Item(itemType: Spelled.itemType, id: 2, attributes: ["cafe\u{301}": "only"]),
            ]
            try seed(store, stored)
            let general = try store.read { try $0.items(forRequest: DataStoreRequest(itemType: Spelled.itemType)) }
                .map(Spelled.init(item:))
            #expect(general == [Spelled(id: 1, café: "decomposed", kelvin: 1.5), Spelled(id: 2, café: "only", kelvin: nil)])
            // The first read learns the keys; the later ones read through what it learned.
            for round in 0..<3 {
                #expect(try store.read { try $0.getAll(Spelled.self) } == general, "getAll, read \(round)")
                #expect(try store.read { try $0.getById(Spelled.self, id: 1) } == general[0], "getById, read \(round)")
            }
            let unchanged = try store.writeSync { try $0.synchronize(general) }
            #expect(unchanged.isEmpty && unchanged.unchanged == 2, "synchronize finds the stored items equal, as items compare")
        },
        ConformanceTest("a typed write keeps the entity's own spelling of a key another entity spelled otherwise, as makeItem() does",
                        group: .entities) { context in
            let store = try context.makeStore()
            // The first entity teaches the plan one spelling of each name; the others spell them
            // otherwise (decomposed, and the KELVIN SIGN for the ASCII letter K).
            let fields: [[String: Int]] = [["caf\u{E9}": 1, "K": 1], ["cafe\u{301}": 2], ["\u{212A}": 3], ["caf\u{E9}": 4]]
            try store.writeSync { accessor in
                for (number, fields) in fields.enumerated() {
                    try accessor.insert(Respelled<TypedTwin>(id: number, fields: fields))
                    try accessor.insert(Respelled<ItemTwin>(id: number, fields: fields).makeItem())
                }
            }
            /// The bytes of the attribute names of each item of `itemType`, by identifier.
            func spellings(_ itemType: String) throws -> [[[UInt8]]] {
                try store.read { try $0.items(forRequest: DataStoreRequest(itemType: itemType)) }
                    .map { $0.attributes.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) } }
            }
            #expect(try spellings(TypedTwin.itemType) == spellings(ItemTwin.itemType))
            for name in ["caf\u{E9}", "cafe\u{301}", "K", "\u{212A}"] {
                var typed = DataStoreRequest(itemType: TypedTwin.itemType)
                typed.filter = .attribute(name) >= 0
                var general = typed
                general.itemType = ItemTwin.itemType
                let found = try store.read { try $0.items(forRequest: typed).map(\.id) }
                #expect(try found == store.read { try $0.items(forRequest: general).map(\.id) }, "filter on \(name.unicodeScalars)")
            }
        },
    ]
}
