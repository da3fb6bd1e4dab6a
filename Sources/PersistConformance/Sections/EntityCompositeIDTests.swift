import Foundation
import Persist
import Testing

/// The key of a playlist's track: two fields, stored as a composite identifier in this order.
struct LineID: Codable, Hashable, Sendable {
    var playlistId: Int64
    var trackId: Int64
}

/// A playlist's track, keyed by the pair.
struct PlaylistLine: DataStoreEntity, Equatable {
    static let itemType = "PlaylistLine"
    var id: LineID
    var position: Int
    var note: String?
}

/// A key whose `Codable` conformance encodes its fields in another order than declared, and
/// names them otherwise than any column.
struct SwappedKey: Codable, Hashable, Sendable {
    var name: String
    var number: Int

    enum CodingKeys: String, CodingKey { case first = "n", second = "s" }

    init(name: String, number: Int) {
        self.name = name
        self.number = number
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int.self, forKey: .first)
        name = try container.decode(String.self, forKey: .second)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .first)
        try container.encode(name, forKey: .second)
    }
}

struct SwappedEntity: DataStoreEntity, Equatable {
    static let itemType = "Swapped"
    var id: SwappedKey
    var value: Double
}

/// Identifiers that cannot be composite: one field, a field of another kind, a nested struct.
struct OneFieldKey: Codable, Hashable, Sendable { var only: Int }
struct DoubleFieldKey: Codable, Hashable, Sendable { var a: Int; var b: Double }
struct NestedFieldKey: Codable, Hashable, Sendable { var a: Int; var b: LineID }

struct OneFieldEntity: DataStoreEntity { static let itemType = "BadKey"; var id: OneFieldKey }
struct DoubleFieldEntity: DataStoreEntity { static let itemType = "BadKey"; var id: DoubleFieldKey }
struct NestedFieldEntity: DataStoreEntity { static let itemType = "BadKey"; var id: NestedFieldKey }

/// Entities whose identifier is a struct of several fields (`ItemID.composite`).
enum EntityCompositeIDTests {
    static func line(_ playlist: Int64, _ track: Int64, _ position: Int, _ note: String? = nil) -> PlaylistLine {
        PlaylistLine(id: LineID(playlistId: playlist, trackId: track), position: position, note: note)
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("an entity with a struct identifier is stored under a composite identifier and read, updated, saved and deleted by it",
                        group: .entities) { context in
            let store = try context.makeStore()
            let lines = [line(2, 1, 1), line(1, 3402, 2, "intro"), line(1, 7, 3)]
            try store.writeSync { accessor in for entry in lines { try accessor.insert(entry) } }
            let items = try allItems(store, PlaylistLine.itemType)
            #expect(items.map(\.id) == [try ItemID(components: [1, 7]), try ItemID(components: [1, 3402]), try ItemID(components: [2, 1])])
            #expect(items[1].attributes == ["position": 2, "note": "intro"])
            #expect(try PlaylistLine.itemID(for: LineID(playlistId: 1, trackId: 3402)) == ItemID.composite([1, 3402]))
            #expect(try lines[1].makeItem() == items[1])
            #expect(try PlaylistLine(item: items[1]) == lines[1])
            // Read twice: the first read learns the type's plan, the second uses it.
            for _ in 0..<2 {
                #expect(try store.read { try $0.getAll(PlaylistLine.self) } == [lines[2], lines[1], lines[0]])
                #expect(try store.read { try $0.getById(PlaylistLine.self, id: LineID(playlistId: 1, trackId: 3402)) } == lines[1])
                #expect(try store.read { try $0.getById(PlaylistLine.self, id: LineID(playlistId: 3402, trackId: 1)) } == nil)
            }
            try store.writeSync { accessor in try accessor.update(line(1, 3402, 9)) }
            expectError(.notFound) { try store.writeSync { accessor in try accessor.update(line(9, 9, 9)) } }
            expectError(.alreadyExists) { try store.writeSync { accessor in try accessor.insert(line(1, 7, 0)) } }
            try store.writeSync { accessor in try accessor.save(line(5, 5, 5)) }
            #expect(try store.read { try $0.getById(PlaylistLine.self, id: LineID(playlistId: 1, trackId: 3402)) } == line(1, 3402, 9))
            #expect(try store.writeSync { try $0.deleteById(PlaylistLine.self, id: LineID(playlistId: 2, trackId: 1)) })
            #expect(try store.writeSync { try $0.deleteById(PlaylistLine.self, id: LineID(playlistId: 2, trackId: 1)) } == false)
            #expect(try store.read { try $0.getAll(PlaylistLine.self) } == [line(1, 7, 3), line(1, 3402, 9), line(5, 5, 5)])
        },
        ConformanceTest("synchronize adds, updates and removes entities with struct identifiers", group: .entities) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor in
                for entry in [line(1, 1, 1), line(1, 2, 2), line(2, 1, 3)] { try accessor.insert(entry) }
            }
            let result = try store.writeSync { accessor in
                try accessor.synchronize([line(1, 1, 1), line(1, 2, 20), line(3, 1, 4)])
            }
            #expect(result.added == [line(3, 1, 4)])
            #expect(result.updated == [line(1, 2, 20)])
            #expect(result.removed == [try ItemID(components: [2, 1])])
            #expect(result.unchanged == 1)
            #expect(try store.read { try $0.getAll(PlaylistLine.self) } == [line(1, 1, 1), line(1, 2, 20), line(3, 1, 4)])
        },
        ConformanceTest("a struct identifier's components follow its encoding order and decode in the order its init asks for keys",
                        group: .entities) { context in
            let store = try context.makeStore()
            let entity = SwappedEntity(id: SwappedKey(name: "b", number: 2), value: 1.5)
            try store.writeSync { accessor in try accessor.insert(entity) }
            #expect(try allItems(store, SwappedEntity.itemType).map(\.id) == [try ItemID(components: [2, "b"])])
            // Rows written as items, as an adopted table's are: only the order of the components counts.
            try seed(store, [Item(itemType: SwappedEntity.itemType, id: try ItemID(components: [1, "a"]), attributes: ["value": 0.5])])
            for _ in 0..<2 {
                #expect(try store.read { try $0.getAll(SwappedEntity.self) }
                    == [SwappedEntity(id: SwappedKey(name: "a", number: 1), value: 0.5), entity])
                #expect(try store.read { try $0.getById(SwappedEntity.self, id: SwappedKey(name: "b", number: 2)) } == entity)
            }
            // A composite identifier of three components does not read as a struct of two fields.
            try seed(store, [Item(itemType: SwappedEntity.itemType, id: try ItemID(components: [1, "a", 3]), attributes: ["value": 0.5])])
            expectError(.typeMismatch) { try store.read { try $0.getAll(SwappedEntity.self) } }
        },
        ConformanceTest("a struct identifier of one field, or with a field that is no string, integer or bytes, is typeMismatch",
                        group: .entities) { context in
            let store = try context.makeStore()
            let one = expectError(.typeMismatch) {
                try store.writeSync { accessor in try accessor.insert(OneFieldEntity(id: OneFieldKey(only: 1))) }
            }
            #expect(one?.message.contains("two or more fields") == true, "\(one?.message ?? "no error")")
            let double = expectError(.typeMismatch) {
                try store.writeSync { accessor in try accessor.insert(DoubleFieldEntity(id: DoubleFieldKey(a: 1, b: 2.5))) }
            }
            #expect(double?.message.contains("\"b\"") == true, "\(double?.message ?? "no error")")
            expectError(.typeMismatch) {
                try store.writeSync { accessor in
                    try accessor.insert(NestedFieldEntity(id: NestedFieldKey(a: 1, b: LineID(playlistId: 1, trackId: 2))))
                }
            }
            expectError(.typeMismatch) { try store.read { try $0.getById(OneFieldEntity.self, id: OneFieldKey(only: 1)) } }
            #expect(try allItems(store, "BadKey").isEmpty)
        },
    ]
}
