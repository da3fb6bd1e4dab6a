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
    ]
}
