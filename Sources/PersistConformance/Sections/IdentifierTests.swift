import Foundation
import Persist
import Testing

/// Generated integer identifiers (`IDGeneration.nextInteger`).
enum IdentifierTests {
    struct Todo: DataStoreEntity, Equatable {
        static let itemType = "Todo"
        var id: Int64
        var title: String
    }

    static func intIDs(_ store: any DataStore, _ itemType: String = "Todo") throws -> [Int64] {
        try allItems(store, itemType).compactMap { $0.id.value.intValue }
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("the first generated identifier of a type is 1, and each next one is larger", group: .identifiers) { context in
            let store = try context.makeStore()
            let ids: [ItemID] = try store.writeSync { accessor in
                let first = try accessor.createItem(ofType: "Todo", idGeneration: .nextInteger)
                first["title"] = "a"
                let second = try accessor.createItem(ofType: "Todo", idGeneration: .nextInteger)
                second["title"] = "b"
                return [first.id, second.id]
            }
            #expect(ids == [1, 2])
            let third: ItemID = try store.writeSync { accessor in
                try accessor.createItem(ofType: "Todo", idGeneration: .nextInteger).id
            }
            #expect(third == 3)
            #expect(try intIDs(store) == [1, 2, 3])
        },
        ConformanceTest("a generated identifier is greater than every integer identifier of its type", group: .identifiers) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Todo", id: 10), Item(itemType: "Todo", id: -4), Item(itemType: "Todo", id: "x"),
                             Item(itemType: "Todo", id: .bytes([9])), Item(itemType: "Other", id: 500)])
            let id = try store.writeSync { accessor in try accessor.nextIntegerID(ofType: "Todo") }
            #expect(id > 10)
            #expect(id < 500)
        },
        ConformanceTest("generated identifiers never collide, also after deletes and explicit identifiers", group: .identifiers) { context in
            let store = try context.makeStore()
            var generated: [Int64] = []
            for round in 0..<4 {
                let ids: [Int64] = try store.writeSync { accessor in
                    var ids: [Int64] = []
                    for _ in 0..<3 {
                        let item = try accessor.createItem(ofType: "Todo", idGeneration: .nextInteger)
                        item["round"] = .int(Int64(round))
                        ids.append(item.id.value.intValue ?? 0)
                    }
                    // An explicit identifier above them raises the next generated one.
                    try accessor.insert(Item(itemType: "Todo", id: .int(ids[2] + 5)))
                    ids.append(try accessor.nextIntegerID(ofType: "Todo"))
                    return ids
                }
                #expect(ids[3] > ids[2] + 5, "the identifier after an explicit \(ids[2] + 5) is \(ids[3])")
                generated += ids.prefix(3)
                try store.writeSync { accessor in
                    let largest = try accessor.items(forRequest: DataStoreRequest(itemType: "Todo")).last
                    if let largest { try accessor.delete(item: largest) }
                }
            }
            #expect(Set(generated).count == generated.count)
            #expect(generated == generated.sorted())
        },
        ConformanceTest("an entity inserted with a generated identifier comes back with it", group: .identifiers) { context in
            let store = try context.makeStore()
            let (first, second) = try store.writeSync { accessor in
                (try accessor.insert(Todo(id: 0, title: "a"), idGeneration: .nextInteger),
                 try accessor.insert(Todo(id: 0, title: "b"), idGeneration: .nextInteger))
            }
            #expect(first == Todo(id: 1, title: "a"))
            #expect(second == Todo(id: 2, title: "b"))
            #expect(try store.read { accessor in try accessor.getAll(Todo.self) } == [first, second])
            let uuid = try store.writeSync { accessor in try accessor.createItem(ofType: "Note", idGeneration: .uuid).id }
            #expect(uuid.value.stringValue.flatMap(UUID.init(uuidString:)) != nil)
        },
        ConformanceTest("a child's generated identifiers never meet its parent's", group: .identifiers) { context in
            let parent = try context.makeStore()
            try seed(parent, [Item(itemType: "Todo", id: 1)])
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            let inChild = try child.writeSync { accessor in try accessor.createItem(ofType: "Todo", idGeneration: .nextInteger).id }
            let inParent = try parent.writeSync { accessor in try accessor.createItem(ofType: "Todo", idGeneration: .nextInteger).id }
            #expect(inChild != inParent)
            try parent.merge(child, policy: .fail)
            #expect(try intIDs(parent).count == 3)
        },
        ConformanceTest("a store's generated identifiers stay above the integer identifiers its children hold, "
                        + "so that the merge keeps both items", group: .identifiers) { context in
            let parent = try context.makeStore()
            try seed(parent, [Item(itemType: "Todo", id: 1), Item(itemType: "Todo", id: 4)])
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            // The child stores items under identifiers it chose itself, not generated ones: the
            // parent's next would be 5, which the merge (child wins) would silently overwrite.
            try child.writeSync { accessor in
                try accessor.insert(Todo(id: 5, title: "typed in the child"))
                try accessor.save(Item(itemType: "Todo", id: 7, attributes: ["title": "saved in the child"]))
            }
            let inParent = try parent.writeSync { accessor in try accessor.createItem(ofType: "Todo", idGeneration: .nextInteger).id }
            #expect((inParent.value.intValue ?? 0) > 7, "the parent handed out \(inParent), which its child holds")
            let sibling = try parent.makeChildDataStore()
            try sibling.setup()
            defer { try? sibling.tearDown() }
            let inSibling = try sibling.writeSync { accessor in try accessor.createItem(ofType: "Todo", idGeneration: .nextInteger).id }
            #expect((inSibling.value.intValue ?? 0) > 7 && inSibling != inParent)
            try parent.merge(child, policy: .fail)
            try parent.merge(sibling, policy: .fail)
            #expect(try intIDs(parent).count == 6)
        },
        ConformanceTest("a block that deleted the largest identifiers and rolled back leaves the next identifier above them",
                        group: .identifiers) { context in
            let store = try context.makeStore()
            try seed(store, (1...10).map { Item(itemType: "Todo", id: .int($0), attributes: ["rank": .int($0)]) })
            try store.writeSync { accessor throws -> TransactionStatus in
                var top = DataStoreRequest(itemType: "Todo")
                top.setSort(byKey: "rank", ascending: false)
                top.limit = 3
                #expect(try accessor.deleteItems(forRequest: top) == 3)
                // Inside the block the three are gone, so it may hand out 8.
                #expect(try accessor.nextIntegerID(ofType: "Todo") > 7)
                return .rollback
            }
            #expect(try store.read { accessor in try accessor.countItems(forRequest: DataStoreRequest(itemType: "Todo")) } == 10)
            let created = try store.writeSync { accessor in
                try accessor.createItem(ofType: "Todo", idGeneration: .nextInteger).id
            }
            #expect((created.value.intValue ?? 0) > 10)
        },
        ConformanceTest("a type holding Int64.max has no next integer identifier", group: .identifiers) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Todo", id: .int(.max))])
            expectError(.unsupported) {
                try store.writeSync { accessor in try accessor.createItem(ofType: "Todo", idGeneration: .nextInteger) }
            }
            expectError(.invalidArgument) {
                try store.writeSync { accessor in try accessor.nextIntegerID(ofType: "") }
            }
        },
    ]
}
