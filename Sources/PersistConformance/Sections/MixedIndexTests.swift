import Foundation
import Persist
import Testing

/// Unique indexes over attributes whose items hold values of more than one kind.
enum MixedIndexTests {
    static func event(_ id: Int64, _ at: Value) -> Item { Item(itemType: "Event", id: .int(id), attributes: ["at": at]) }

    static let all: [ConformanceTest] = [
        ConformanceTest("a unique index over an attribute of mixed kinds still finds dates equal as predicates do",
                        group: .indexes) { context in
            let store = try context.makeStore()
            let zero = Value.date(Date(timeIntervalSinceReferenceDate: 0.0))
            let negativeZero = Value.date(Date(timeIntervalSinceReferenceDate: -0.0))
            try seed(store, [event(1, 5), event(2, zero)])
            try store.writeSync { accessor in try accessor.ensureIndex(ofType: "Event", on: ["at"], unique: true) }
            // -0.0 and 0.0 are the same instant.
            let error = expectError(.uniqueViolation) { try seed(store, [event(3, negativeZero)]) }
            #expect(Set(error?.items ?? []) == [ItemReference(itemType: "Event", id: 2), ItemReference(itemType: "Event", id: 3)])
            // Declared before the attribute mixes kinds, the index still holds once it does.
            try store.writeSync { accessor in try accessor.ensureIndex(ofType: "Later", on: ["at"], unique: true) }
            try seed(store, [Item(itemType: "Later", id: 1, attributes: ["at": zero])])
            try seed(store, [Item(itemType: "Later", id: 2, attributes: ["at": "noon"])])
            expectError(.uniqueViolation) { try seed(store, [Item(itemType: "Later", id: 3, attributes: ["at": negativeZero])]) }
            var equal = DataStoreRequest(itemType: "Event")
            equal.filter = .attribute("at") == negativeZero
            #expect(try store.read { accessor in try accessor.countItems(forRequest: equal) } == 1)
            #expect(try allItems(store, "Later").map(\.id) == [1, 2])
        },
        ConformanceTest("an attribute under a unique index takes a value of another kind without a false conflict",
                        group: .indexes) { context in
            let store = try context.makeStore()
            // Bytes that are another item's bytes with one byte more in front.
            let blobs = [Item(itemType: "Blob", id: 1, attributes: ["data": .bytes([0x41])]),
                         Item(itemType: "Blob", id: 2, attributes: ["data": .bytes([0x06, 0x41])]),
                         Item(itemType: "Blob", id: 3, attributes: ["note": "x"])]
            try seed(store, blobs)
            try store.writeSync { accessor in try accessor.ensureIndex(ofType: "Blob", on: ["data"], unique: true) }
            var third = DataStoreRequest(itemType: "Blob")
            third.filter = .attribute("note") == "x"
            #expect(try store.writeSync { accessor in try accessor.updateItems(forRequest: third, setting: ["data": "text"]) } == 1)
            #expect(try allItems(store, "Blob").map { $0["data"] } == [.bytes([0x41]), .bytes([0x06, 0x41]), "text"])
            // The index still refuses a real conflict.
            expectError(.uniqueViolation) {
                try seed(store, [Item(itemType: "Blob", id: 4, attributes: ["data": .bytes([0x06, 0x41])])])
            }
        },
    ]
}
