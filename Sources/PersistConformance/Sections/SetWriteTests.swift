import Foundation
import Persist
import Testing

/// `deleteItems(forRequest:)` and `updateItems(forRequest:setting:)`.
enum SetWriteTests {
    static func todo(_ id: Int64, _ rank: Int, done: Bool, tag: String? = nil) -> Item {
        var item = Item(itemType: "Todo", id: .int(id), attributes: ["rank": .int(Int64(rank)), "done": .bool(done)])
        item["tag"] = tag.map(Value.string)
        return item
    }

    /// Eight to-dos: ranks 8…1, even identifiers done.
    static func seedTodos(_ store: any DataStore) throws -> [Item] {
        let items = (1...8).map { todo(Int64($0), 9 - $0, done: $0 % 2 == 0, tag: $0 % 3 == 0 ? "x" : nil) }
        try seed(store, items)
        return items
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("deleteItems removes exactly what the filter selects and returns how many", group: .setWrites) { context in
            let store = try context.makeStore()
            let items = try seedTodos(store)
            var request = DataStoreRequest(itemType: "Todo")
            request.filter = .attribute("done") == true
            let removed = try store.writeSync { accessor in try accessor.deleteItems(forRequest: request) }
            #expect(removed == 4)
            #expect(try allItems(store, "Todo") == items.filter { $0["done"] == false })
            #expect(try store.writeSync { accessor in try accessor.deleteItems(forRequest: request) } == 0)
            #expect(try store.writeSync { accessor in try accessor.deleteItems(forRequest: DataStoreRequest(itemType: "Nothing")) } == 0)
        },
        ConformanceTest("sort, offset and limit choose the same items as items(forRequest:)", group: .setWrites) { context in
            let store = try context.makeStore()
            _ = try seedTodos(store)
            var request = DataStoreRequest(itemType: "Todo")
            request.filter = .attribute("rank") > 1
            request.setSort(byKey: "rank", ascending: true)
            request.offset = 2
            request.limit = 3
            let chosen = try store.read { accessor in try accessor.items(forRequest: request) }.map(\.id)
            #expect(chosen == [5, 4, 3])
            let updated = try store.writeSync { accessor in try accessor.updateItems(forRequest: request, setting: ["tag": "picked"]) }
            #expect(updated == 3)
            var picked = DataStoreRequest(itemType: "Todo")
            picked.filter = .attribute("tag") == "picked"
            #expect(try store.read { accessor in try accessor.items(forRequest: picked) }.map(\.id) == [3, 4, 5])
            let removed = try store.writeSync { accessor in try accessor.deleteItems(forRequest: request) }
            #expect(removed == 3)
            #expect(try allItems(store, "Todo").map(\.id) == [1, 2, 6, 7, 8])
        },
        ConformanceTest("updateItems sets values, removes attributes set to null and keeps the rest", group: .setWrites) { context in
            let store = try context.makeStore()
            let items = try seedTodos(store)
            var request = DataStoreRequest(itemType: "Todo")
            request.filter = .attribute("tag") == "x"
            let count = try store.writeSync { accessor in
                try accessor.updateItems(forRequest: request, setting: ["done": true, "tag": .null, "note": "checked"])
            }
            #expect(count == 2)
            let expected = items.map { item -> Item in
                guard item["tag"] == "x" else { return item }
                return item.setting(["done": true, "tag": .null, "note": "checked"])
            }
            #expect(try allItems(store, "Todo") == expected)
            let all = try store.writeSync { accessor in try accessor.updateItems(forRequest: DataStoreRequest(itemType: "Todo"), setting: [:]) }
            #expect(all == 8)
            #expect(try allItems(store, "Todo") == expected)
        },
        ConformanceTest("mutable items handed out before a set-based write follow it and never resurrect", group: .setWrites) { context in
            let store = try context.makeStore()
            _ = try seedTodos(store)
            try store.writeSync { accessor in
                let mutable = try accessor.mutableItems(forRequest: DataStoreRequest(itemType: "Todo"))
                // A pending in-place change is written before the set-based write selects.
                mutable[0]["done"] = true
                var done = DataStoreRequest(itemType: "Todo")
                done.filter = .attribute("done") == true
                #expect(try accessor.deleteItems(forRequest: done) == 5)
                #expect(mutable[0].isDeleted)
                #expect(mutable[1].isDeleted)
                #expect(!mutable[2].isDeleted)
                #expect(throws: DataStoreError.self) { try mutable[1].set(1, forKey: "rank") }
                #expect(try accessor.updateItems(forRequest: DataStoreRequest(itemType: "Todo"), setting: ["tag": "left"]) == 3)
                #expect(mutable[2]["tag"] == "left")
                mutable[2]["rank"] = 100
            }
            let left = try allItems(store, "Todo")
            #expect(left.map(\.id) == [3, 5, 7])
            #expect(left.allSatisfy { $0["tag"] == "left" })
            #expect(left[0]["rank"] == 100)
        },
        ConformanceTest("mutable items follow a set-based write that spells their type another way the store takes as the same",
                        group: .setWrites) { context in
            let store = try context.makeStore()
            // "é" as one scalar and as "e" with a combining accent: one type on most stores, two on GDBM.
            let (composed, decomposed) = ("Caf\u{e9}", "Cafe\u{301}")
            try seed(store, [Item(itemType: composed, id: 1, attributes: ["v": 1]), Item(itemType: composed, id: 2, attributes: ["v": 1])])
            let written = try store.writeSync { accessor in
                let mutable = try accessor.mutableItems(forRequest: DataStoreRequest(itemType: composed))
                try accessor.updateItems(forRequest: DataStoreRequest(itemType: decomposed, filter: .attribute("v") == 1, limit: 1),
                                         setting: ["v": 2])
                try accessor.deleteItems(forRequest: DataStoreRequest(itemType: decomposed, filter: .attribute("v") == 1))
                let stored = try accessor.items(forRequest: DataStoreRequest(itemType: composed))
                for item in mutable {
                    let current = stored.first { $0.id == item.id }
                    #expect(item.isDeleted == (current == nil))
                    if let current { #expect(item.item == current) }
                }
                // Changes on top of them neither undo the update nor bring a deleted item back.
                for item in mutable where !item.isDeleted { item["w"] = 3 }
                return stored.map { $0.setting(["w": 3]) }
            }
            #expect(try allItems(store, composed) == written)
        },
        ConformanceTest("set-based writes roll back with their block", group: .setWrites) { context in
            let store = try context.makeStore()
            let items = try seedTodos(store)
            try store.writeSync { accessor -> TransactionStatus in
                try accessor.deleteItems(forRequest: DataStoreRequest(itemType: "Todo", limit: 3))
                try accessor.updateItems(forRequest: DataStoreRequest(itemType: "Todo"), setting: ["done": false])
                return .rollback
            }
            #expect(try allItems(store, "Todo") == items)
        },
        ConformanceTest("an update a unique index refuses changes no item, also when the block catches the error and commits",
                        group: .setWrites) { context in
            let store = try context.makeStore()
            let users = ["a@x", "b@x", "c@x"].enumerated().map { index, email in
                Item(itemType: "User", id: .int(Int64(index + 1)), attributes: ["email": .string(email)])
            }
            try seed(store, users)
            try store.writeSync { accessor in try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true) }
            try store.writeSync { accessor in
                var request = DataStoreRequest(itemType: "User")
                request.filter = .attribute("email") != "c@x"
                expectError(.uniqueViolation) { try accessor.updateItems(forRequest: request, setting: ["email": "same@x"]) }
            }
            #expect(try allItems(store, "User") == users)
        },
        ConformanceTest("invalid requests and attribute names are refused before anything changes", group: .setWrites) { context in
            let store = try context.makeStore()
            let items = try seedTodos(store)
            expectError(.invalidArgument) {
                try store.writeSync { accessor in try accessor.deleteItems(forRequest: DataStoreRequest(itemType: "Todo", offset: -1)) }
            }
            expectError(.invalidArgument) {
                try store.writeSync { accessor in try accessor.updateItems(forRequest: DataStoreRequest(itemType: "Todo"), setting: ["": 1]) }
            }
            expectError(.invalidArgument) {
                try store.writeSync { accessor in try accessor.updateItems(forRequest: DataStoreRequest(itemType: ""), setting: ["a": 1]) }
            }
            #expect(try allItems(store, "Todo") == items)
        },
    ]
}
