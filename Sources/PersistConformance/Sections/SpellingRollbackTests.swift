import Foundation
import Persist
import Testing

/// A block refused by a unique index (or ended by an error) is rolled back whole, the table it
/// created included; the next block may meet the attribute in its other Unicode spelling.
enum SpellingRollbackTests {
    struct Abandoned: Error {}

    static let all: [ConformanceTest] = [
        ConformanceTest("after a block that created a type was rolled back, a block writing its attribute in the other Unicode spelling works",
                        group: .blocks) { context in
            let store = try context.makeStore()
            #expect(throws: Abandoned.self) {
                try store.writeSync { accessor in
                    try accessor.insert(Item(itemType: "Town", id: 1, attributes: ["\u{E9}t\u{E9}": 1]))
                    throw Abandoned()
                }
            }
            try seed(store, [Item(itemType: "Town", id: 2, attributes: ["e\u{301}te\u{301}": 2])])
            #expect(try allItems(store, "Town").map(\.id) == [2])
        },
        ConformanceTest("after a block that created a type was refused, a block writing its attribute in the other Unicode spelling works",
                        group: .indexes) { context in
            let store = try context.makeStore()
            let composed = "\u{E9}cole", decomposed = "e\u{301}cole"
            try store.writeSync { accessor in try accessor.ensureIndex(ofType: "School", on: [composed], unique: true) }
            expectError(.uniqueViolation) {
                try store.writeSync { accessor in
                    try accessor.insert(Item(itemType: "School", id: 1, attributes: [composed: "Leeds"]))
                    try accessor.insert(Item(itemType: "School", id: 2, attributes: [composed: "Leeds"]))
                }
            }
            try seed(store, [Item(itemType: "School", id: 3, attributes: [decomposed: "York"])])
            #expect(try allItems(store, "School").map(\.id) == [3])
            #expect(try store.read { accessor in try accessor.countItems(forRequest: DataStoreRequest(itemType: "School")) } == 1)
        },
    ]
}
