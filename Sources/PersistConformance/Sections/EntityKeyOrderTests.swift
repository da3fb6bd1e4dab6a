import Foundation
import Persist
import Testing

/// A model that keeps the keys its containers list, in the order listed: at the top level and in
/// a nested struct.
struct KeyLister: DataStoreEntity, Equatable {
    static let itemType = "KeyLister"

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A nested struct that keeps its keys in the order listed.
    struct Inner: Codable, Equatable, Sendable {
        var keys: [String]

        init(from decoder: any Decoder) throws {
            keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            for key in keys { try container.encode(true, forKey: AnyKey(stringValue: key)) }
        }
    }

    var id: Int
    var keys: [String]
    var inner: Inner

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        id = try container.decode(Int.self, forKey: AnyKey(stringValue: "id"))
        inner = try container.decode(Inner.self, forKey: AnyKey(stringValue: "inner"))
        keys = container.allKeys.map(\.stringValue)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(id, forKey: AnyKey(stringValue: "id"))
        try container.encode(inner, forKey: AnyKey(stringValue: "inner"))
    }
}

/// A model with a dictionary, whose stored values may not fit it.
struct Scoreboard: DataStoreEntity {
    static let itemType = "Scoreboard"
    var id: Int
    var scores: [String: Double]
}

/// The order in which containers list keys, and so which of several values that do not fit an
/// error names: the same on every read and on every path.
enum EntityKeyOrderTests {
    /// Names whose UTF-8 byte order differs from their order in a Swift dictionary, and from the
    /// order they were given in.
    static let names = ["zeta", "Alpha", "é", "e\u{301}x", "a", "_", "mid", "id2", "B", "k9", "k10", "𝄞", "~", "!"]

    static var byteOrdered: [String] {
        names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("containers list allKeys in the UTF-8 byte order of the keys, on every read and path",
                        group: .entities) { context in
            let store = try context.makeStore()
            var attributes: [String: Value] = [:]
            for name in names { attributes[name] = .int(1) }
            attributes["inner"] = .object(Dictionary(uniqueKeysWithValues: names.map { ($0, .bool(true)) }))
            try seed(store, [Item(itemType: KeyLister.itemType, id: 1, attributes: attributes)])
            let top = (names + ["id", "inner"]).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for _ in 0..<6 {
                let typed = try store.read { try $0.getAll(KeyLister.self) }
                let byID = try store.read { try $0.getById(KeyLister.self, id: 1) }
                let general = try store.read { try $0.items(forRequest: DataStoreRequest(itemType: KeyLister.itemType)) }
                    .map(KeyLister.init(item:))
                #expect(typed.map(\.keys) == [top], "getAll")
                #expect(byID?.keys == top, "getById")
                #expect(general.map(\.keys) == [top], "init(item:)")
                #expect(typed.map(\.inner.keys) == [byteOrdered] && byID?.inner.keys == byteOrdered, "a nested struct's keys")
                #expect(general.map(\.inner.keys) == [byteOrdered], "a nested struct's keys through init(item:)")
            }
        },
        ConformanceTest("an error on a dictionary holding several values that do not fit names the first key in byte order, every time",
                        group: .entities) { context in
            let store = try context.makeStore()
            let scores = Value.object(Dictionary(uniqueKeysWithValues: names.map { ($0, Value.string("not a number")) }))
            try seed(store, [Item(itemType: Scoreboard.itemType, id: 1, attributes: ["scores": scores])])
            let first = byteOrdered[0]
            for _ in 0..<6 {
                let typed = expectError(.typeMismatch) { try store.read { try $0.getAll(Scoreboard.self) } }
                let byID = expectError(.typeMismatch) { try store.read { try $0.getById(Scoreboard.self, id: 1) } }
                let general = expectError(.typeMismatch) {
                    try store.read { try $0.items(forRequest: DataStoreRequest(itemType: Scoreboard.itemType)) }
                        .map(Scoreboard.init(item:))
                }
                #expect(general?.message.contains("scores.\(first): expected Double") == true, "\(general?.message ?? "")")
                #expect(typed?.message == general?.message && byID?.message == general?.message)
            }
        },
    ]
}
