import Foundation
import Persist
import Testing

/// A property wrapper around an optional, as apps write them: it encodes `nil` as null through a
/// single-value container, and decodes null as `nil`.
@propertyWrapper
struct Clearable: Codable, Sendable, Equatable {
    var wrappedValue: Int?

    init(wrappedValue: Int?) { self.wrappedValue = wrappedValue }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Int.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

/// A model whose `nil` values are encoded as null, not left out: a wrapped optional, and an
/// optional written with `encode` and read with `decode(String?.self, forKey:)`.
struct Profile: DataStoreEntity, Equatable {
    static let itemType = "Profile"
    var id: Int
    @Clearable var score: Int?
    var motto: String?

    private enum CodingKeys: String, CodingKey { case id, score, motto }

    init(id: Int, score: Int?, motto: String?) {
        self.id = id
        self.score = score
        self.motto = motto
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        _score = try container.decode(Clearable.self, forKey: .score)
        motto = try container.decode(String?.self, forKey: .motto)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(_score, forKey: .score)
        try container.encode(motto, forKey: .motto)
    }
}

/// A model whose nested value is required: a missing one is `keyNotFound`, which it catches.
struct Badge: DataStoreEntity, Equatable {
    struct Level: Codable, Equatable { var rank: Int }
    static let itemType = "Badge"
    var id: Int
    var level: Level?
    var missing = false

    private enum CodingKeys: String, CodingKey { case id, level }

    init(id: Int, level: Level?) {
        self.id = id
        self.level = level
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        do {
            level = try container.decode(Level.self, forKey: .level)
        } catch DecodingError.keyNotFound {
            missing = true
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(level, forKey: .level)
    }
}

/// Entities whose `nil` values are encoded as null: items drop null attributes, so these come back
/// as missing keys, which a type decoding null must read as null.
enum EntityNullTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("nil values encoded as null (wrapped optionals, optionals written with encode) read back as nil",
                        group: .entities) { context in
            let store = try context.makeStore()
            let profiles = (1...6).map { Profile(id: $0, score: $0 % 2 == 0 ? nil : $0, motto: $0 % 3 == 0 ? nil : "m\($0)") }
            try store.writeSync { accessor in for profile in profiles.prefix(3) { try accessor.insert(profile) } }
            try store.writeSync { accessor in for profile in profiles.dropFirst(3) { try accessor.insert(profile.makeItem()) } }
            // Several reads, so that typed reads go through a learned plan.
            for _ in 0..<3 {
                #expect(try store.read { try $0.getAll(Profile.self) } == profiles)
                #expect(try store.read { try $0.getById(Profile.self, id: 2) } == profiles[1])
            }
            let items = try allItems(store, Profile.itemType)
            #expect(try items.map { try Profile(item: $0) } == profiles)
            #expect(items[1]["score"] == nil && items[2]["motto"] == nil)
            // A value the model cannot read (an integer for its String?) is refused with the same error on both paths.
            try store.writeSync { try $0.save(Item(itemType: Profile.itemType, id: 7, attributes: ["motto": 1])) }
            let typed = expectError(.typeMismatch) { try store.read { try $0.getAll(Profile.self) } }
            let general = expectError(.typeMismatch) { try allItems(store, Profile.itemType).map { try Profile(item: $0) } }
            #expect(typed?.message.hasPrefix(general?.message ?? "-") == true)
            #expect(general?.message.contains("motto") == true)
        },
        ConformanceTest("a missing value of a type that does not accept null is still keyNotFound", group: .entities) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor in
                try accessor.insert(Badge(id: 1, level: Badge.Level(rank: 3)))
                try accessor.insert(Badge(id: 2, level: nil))
            }
            for _ in 0..<3 {
                let badges = try store.read { try $0.getAll(Badge.self) }
                #expect(badges.map(\.missing) == [false, true])
                #expect(badges.first?.level == Badge.Level(rank: 3))
            }
            #expect(try allItems(store, Badge.itemType).map { try Badge(item: $0).missing } == [false, true])
        },
    ]
}
