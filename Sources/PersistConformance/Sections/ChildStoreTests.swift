import Foundation
import Persist
import Testing

/// Child stores: overlay reads, merge, discard, conflict policies, nesting, misuse.
enum ChildStoreTests {
    static func note(_ id: ItemID, _ value: Int) -> Item {
        Item(itemType: "Note", id: id, attributes: ["v": .int(Int64(value))])
    }

    static func makeChild(of store: any DataStore) throws -> any DataStore {
        let child = try store.makeChildDataStore()
        try child.setup()
        return child
    }

    /// A parent with items a…f, and a child that changed a…f in every conflicting and
    /// non-conflicting way after the parent changed them too.
    static func conflictScenario(_ context: ConformanceContext) throws -> (parent: any DataStore, child: any DataStore) {
        let parent = try context.makeStore()
        try seed(parent, [note("a", 1), note("b", 1), note("c", 1), note("e", 1), note("f", 1), note("g", 1)])
        let child = try makeChild(of: parent)
        try child.writeSync { accessor in
            try accessor.save(note("a", 2))                      // updated in both
            try accessor.save(note("b", 2))                      // child updates, parent deletes
            try accessor.deleteItem(ofType: "Note", id: "c")     // child deletes, parent updates
            try accessor.insert(note("d", 2))                    // inserted in both
            try accessor.deleteItem(ofType: "Note", id: "e")     // deleted in both: still a conflict
            try accessor.save(note("f", 5))                      // same value in both: still a conflict
            try accessor.save(note("g", 2))                      // only the child: no conflict
            try accessor.insert(note("h", 2))                    // only the child: no conflict
        }
        try parent.writeSync { accessor in
            try accessor.save(note("a", 3))
            try accessor.deleteItem(ofType: "Note", id: "b")
            try accessor.save(note("c", 3))
            try accessor.insert(note("d", 3))
            try accessor.deleteItem(ofType: "Note", id: "e")
            try accessor.save(note("f", 5))
        }
        return (parent, child)
    }

    static func values(_ store: any DataStore) throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for item in try allItems(store, "Note") {
            if case .string(let id) = item.id { result[id] = item["v"]?.intValue }
        }
        return result
    }

    /// A parent holding notes a, b and c (all 1), and a child that inserted d (4), changed b to 2
    /// and deleted c.
    static func parentWithEditedChild(_ context: ConformanceContext) throws -> (any DataStore, any DataStore) {
        let parent = try context.makeStore()
        try seed(parent, [note("a", 1), note("b", 1), note("c", 1)])
        let child = try makeChild(of: parent)
        try child.writeSync { accessor in
            try accessor.insert(note("d", 4))
            try accessor.save(note("b", 2))
            try accessor.deleteItem(ofType: "Note", id: "c")
        }
        return (parent, child)
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("a child sees the parent overlaid with its own inserts, updates and deletes",
                        group: .children) { context in
            let (parent, child) = try parentWithEditedChild(context)
            try parent.writeSync { accessor in try accessor.save(note("a", 9)) }
            #expect(try values(child) == ["a": 9, "b": 2, "d": 4])
            #expect(try values(parent) == ["a": 9, "b": 1, "c": 1])
            try child.read { accessor throws in
                #expect(try accessor.item(ofType: "Note", id: "c") == nil)
                #expect(try accessor.item(ofType: "Note", id: "d") == note("d", 4))
                var request = DataStoreRequest(itemType: "Note")
                request.filter = .attribute("v") >= 2
                request.setSort(byKey: "v", ascending: false)
                #expect(try accessor.items(forRequest: request).map(\.id) == ["a", "d", "b"])
                #expect(try accessor.countItems(forRequest: request) == 3)
                request.offset = 1
                request.limit = 1
                #expect(try accessor.items(forRequest: request).map(\.id) == ["d"])
                #expect(try accessor.countItems(forRequest: request) == 1)
                #expect(try accessor.itemTypes() == ["Note"])
            }
        },
        ConformanceTest("a child holds only its changes", group: .children) { context in
            let parent = try context.makeStore()
            try seed(parent, (0..<500).map { note(.int(Int64($0)), $0) })
            let child = try makeChild(of: parent)
            try child.writeSync { accessor in
                for item in try accessor.mutableItems(forRequest: DataStoreRequest(itemType: "Note")) where item.id == 7 {
                    item["v"] = 70
                }
                try accessor.deleteItem(ofType: "Note", id: 8)
                try accessor.insert(note(1000, 1))
            }
            #expect((child as? ChildDataStore)?.changeCount == 3)
            #expect(try allItems(child, "Note").count == 500)
        },
        ConformanceTest("merge applies every change in one write and leaves the child empty and usable",
                        group: .children) { context in
            let (parent, child) = try parentWithEditedChild(context)
            try child.writeSync { accessor in
                let other = try accessor.createItem(ofType: "Other", id: 1)
                other["x"] = "y"
            }
            try parent.merge(child)
            #expect(try values(parent) == ["a": 1, "b": 2, "d": 4])
            #expect(try allItems(parent, "Other").count == 1)
            #expect((child as? ChildDataStore)?.changeCount == 0)
            #expect(try values(child) == ["a": 1, "b": 2, "d": 4])
            try child.writeSync { accessor in try accessor.save(note("a", 5)) }
            try parent.merge(child)
            #expect(try values(parent) == ["a": 5, "b": 2, "d": 4])
        },
        ConformanceTest("dropping, tearing down or discarding a child leaves the parent as it was",
                        group: .children) { context in
            let parent = try context.makeStore()
            try seed(parent, [note("a", 1)])
            do {
                let dropped = try makeChild(of: parent)
                try dropped.writeSync { accessor in try accessor.save(note("a", 2)) }
            }
            let tornDown = try makeChild(of: parent)
            try tornDown.writeSync { accessor in try accessor.insert(note("b", 2)) }
            try tornDown.tearDown()
            let discarded = try makeChild(of: parent)
            try discarded.writeSync { accessor in try accessor.deleteItem(ofType: "Note", id: "a") }
            try (discarded as? ChildDataStore)?.discardChanges()
            #expect(try values(discarded) == ["a": 1])
            try parent.merge(discarded)
            #expect(try values(parent) == ["a": 1])
        },
        ConformanceTest("policy .fail throws conflict listing every conflicting item and applies nothing",
                        group: .children) { context in
            let (parent, child) = try conflictScenario(context)
            let before = try values(parent)
            let error = expectError(.conflict) { try parent.merge(child, policy: .fail) }
            #expect(Set(error?.items ?? []) == Set(["a", "b", "c", "d", "e", "f"].map { ItemReference(itemType: "Note", id: $0) }))
            #expect(try values(parent) == before)
            #expect((child as? ChildDataStore)?.changeCount == 8)
        },
        ConformanceTest("policy .childWins applies the child's version of every conflicting item",
                        group: .children) { context in
            let (parent, child) = try conflictScenario(context)
            try parent.merge(child, policy: .childWins)
            #expect(try values(parent) == ["a": 2, "b": 2, "d": 2, "f": 5, "g": 2, "h": 2])
        },
        ConformanceTest("policy .parentWins keeps the parent's version of conflicting items only",
                        group: .children) { context in
            let (parent, child) = try conflictScenario(context)
            try parent.merge(child, policy: .parentWins)
            #expect(try values(parent) == ["a": 3, "c": 3, "d": 3, "f": 5, "g": 2, "h": 2])
            #expect((child as? ChildDataStore)?.changeCount == 0)
        },
        ConformanceTest("a child that deletes its own insert after the parent made an item of that id keeps it hidden, "
                        + "and the merge treats it as a conflict", group: .children) { context in
            let parent = try context.makeStore()
            let child = try makeChild(of: parent)
            try child.writeSync { accessor in try accessor.insert(note("k", 1)) }
            try seed(parent, [note("k", 9)])
            #expect(try child.writeSync { accessor in try accessor.deleteItem(ofType: "Note", id: "k") })
            #expect(try values(child).isEmpty)
            expectError(.conflict) { try parent.merge(child, policy: .fail) }
            #expect(try values(parent) == ["k": 9])
            try parent.merge(child, policy: .childWins)
            #expect(try values(parent).isEmpty)
        },
        ConformanceTest("children nest: a grandchild merges into its child, which merges into the parent",
                        group: .children) { context in
            let parent = try context.makeStore()
            try seed(parent, [note("a", 1)])
            let child = try makeChild(of: parent)
            try child.writeSync { accessor in try accessor.save(note("b", 2)) }
            let grandchild = try makeChild(of: child)
            try grandchild.writeSync { accessor in
                try accessor.save(note("c", 3))
                try accessor.deleteItem(ofType: "Note", id: "a")
            }
            #expect(try values(grandchild) == ["b": 2, "c": 3])
            #expect(try values(child) == ["a": 1, "b": 2])
            expectError(.misuse) { try parent.merge(grandchild) }
            try child.merge(grandchild)
            #expect(try values(child) == ["b": 2, "c": 3])
            #expect(try values(parent) == ["a": 1])
            try parent.merge(child)
            #expect(try values(parent) == ["b": 2, "c": 3])
        },
        ConformanceTest("merging a store that is not this store's child is misuse", group: .children) { context in
            let parent = try context.makeStore()
            // Another store: one more store on the same files may be refused, so a store of another kind.
            let other: any DataStore = InMemoryDataStore()
            try other.setup()
            defer { try? other.tearDown() }
            let child = try makeChild(of: parent)
            let sibling = try makeChild(of: parent)
            try child.writeSync { accessor in try accessor.insert(note("a", 1)) }
            expectError(.misuse) { try other.merge(child) }
            expectError(.misuse) { try sibling.merge(child) }
            expectError(.misuse) { try parent.merge(other) }
            let itself = expectError(.misuse) { try child.merge(child) }
            #expect(itself?.message.contains("cannot be merged into itself") == true, "\(String(describing: itself))")
            expectError(.misuse) { try child.writeSync { _ in try parent.merge(child) } }
            // The parent's own write block: the merge runs on the child's queue, from where the
            // parent's is still known to be busy.
            expectError(.misuse) { try parent.writeSync { _ in try parent.merge(child) } }
            let grandchild = try makeChild(of: child)
            try grandchild.writeSync { accessor in try accessor.insert(note("g", 7)) }
            expectError(.misuse) { try child.writeSync { _ in try child.merge(grandchild) } }
            #expect(try allItems(other, "Note").isEmpty && allItems(parent, "Note").isEmpty)
            try child.merge(grandchild)
            try parent.merge(child)
            #expect(try allItems(parent, "Note").map(\.id) == ["a", "g"])
            let unopened = try parent.makeChildDataStore()
            expectError(.misuse) { try unopened.read { _ in 1 } }
            try parent.tearDown()
            expectError(.misuse) { try parent.makeChildDataStore() }
        },
        ConformanceTest("merge waits for the child's queued asynchronous writes", group: .children) { context in
            let parent = try context.makeStore()
            let child = try makeChild(of: parent)
            for index in 0..<30 {
                child.writeAsync({ accessor in try accessor.insert(note(.int(Int64(index)), index)) }, completion: nil)
            }
            try parent.merge(child)
            #expect(try allItems(parent, "Note").count == 30)
        },
        ConformanceTest("typed entities and mutable items work through a child", group: .children) { context in
            let parent = try context.makeStore()
            let child = try makeChild(of: parent)
            try child.writeSync { accessor in
                try accessor.insert(Counter(id: 1, value: 1))
                let item = try accessor.createItem(ofType: "Counter", id: 2)
                item["value"] = 2
            }
            try child.writeSync { accessor in
                let counter = try #require(try accessor.mutableVersion(ofItem: Item(itemType: "Counter", id: 1)))
                counter["value"] = 10
            }
            #expect(try child.read { try $0.getAll(Counter.self) } == [Counter(id: 1, value: 10), Counter(id: 2, value: 2)])
            #expect(try parent.read { try $0.getAll(Counter.self) }.isEmpty)
            try parent.merge(child)
            #expect(try parent.read { try $0.getAll(Counter.self) } == [Counter(id: 1, value: 10), Counter(id: 2, value: 2)])
        },
        ConformanceTest("a child takes two Unicode spellings of a type for one type or two exactly as its parent does",
                        group: .children) { context in
            // One type on most stores, two on GDBM, which compares names by their bytes: either
            // way the child shows what its merge then gives the parent, and touches nothing else.
            let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
            let parent = try context.makeStore()
            try parent.writeSync { accessor in
                try accessor.save(Item(itemType: composed, id: "x", attributes: ["v": 1]))
                try accessor.save(Item(itemType: decomposed, id: "x", attributes: ["v": 2]))
                try accessor.save(Item(itemType: decomposed, id: "y", attributes: ["v": 3]))
            }
            func view(_ store: any DataStore) throws -> [[Item]] {
                [try allItems(store, composed), try allItems(store, decomposed)]
            }
            // Compared as Swift strings: a store that takes the two spellings for one type may
            // list it in either spelling, and one that keeps them apart lists both.
            func types(_ store: any DataStore) throws -> [String] {
                try store.read { try $0.itemTypes() }
            }
            let child = try makeChild(of: parent)
            #expect(try view(child) == view(parent))
            #expect(try types(child) == types(parent))
            try child.writeSync { accessor in
                try accessor.save(Item(itemType: composed, id: "z", attributes: ["v": 9]))
                try accessor.deleteItem(ofType: decomposed, id: "x")
            }
            let seen = try view(child)
            let seenTypes = try types(child)
            try parent.merge(child)
            #expect(try view(parent) == seen)
            #expect(try types(parent) == seenTypes)
        },
        ConformanceTest("random requests through a child over a changed parent match the reference",
                        group: .children) { context in
            let parent = try context.makeStore()
            try DifferentialTests.runThroughChild(
                of: parent, seed: DifferentialTests.seed &+ 1, requests: 1000, extras: RandomExtras(for: context.factory.capabilities))
        },
    ]
}
