import Foundation
import Persist
import Testing

/// Composite identifiers (`ItemID.composite`): the rows of a table keyed by several columns,
/// written, read, requested, counted, deleted, merged and observed like any other item.
enum CompositeIdentifierTests {
    /// A composite identifier from components that make a valid one.
    static func key(_ components: ItemID...) throws -> ItemID {
        try ItemID(components: components)
    }

    static func line(_ id: ItemID, _ position: Int) -> Item {
        Item(itemType: "Line", id: id, attributes: ["pos": .int(Int64(position))])
    }

    static func ids(_ items: [Item]) -> [ItemID] { items.map(\.id) }

    static let all: [ConformanceTest] = [
        ConformanceTest("an item with a composite identifier is inserted, read, updated, saved and deleted by it",
                        group: .identifiers) { context in
            let store = try context.makeStore()
            let id = try key(1, 3402)
            try store.writeSync { accessor in try accessor.insert(line(id, 1)) }
            #expect(try store.read { try $0.item(ofType: "Line", id: id) } == line(id, 1))
            #expect(try store.read { try $0.item(ofType: "Line", id: key(3402, 1)) } == nil)
            #expect(try store.read { try $0.item(ofType: "Line", id: 1) } == nil)
            expectError(.alreadyExists) { try store.writeSync { accessor in try accessor.insert(line(id, 2)) } }
            try store.writeSync { accessor in try accessor.save(line(id, 2)) }
            #expect(try store.read { try $0.item(ofType: "Line", id: id) }?["pos"] == 2)
            try store.writeSync { accessor in
                let mutable = try accessor.mutableVersion(ofItem: line(id, 2))
                try mutable?.set(3, forKey: "pos")
            }
            #expect(try store.read { try $0.item(ofType: "Line", id: id) }?["pos"] == 3)
            #expect(try store.writeSync { try $0.deleteItem(ofType: "Line", id: id) })
            #expect(try store.writeSync { try $0.deleteItem(ofType: "Line", id: id) } == false)
            #expect(try allItems(store, "Line").isEmpty)
        },
        ConformanceTest("requests order composite identifiers component by component, breaking sort ties, and count and delete them",
                        group: .identifiers) { context in
            let store = try context.makeStore()
            // Inserted out of order; every item has the same position, so the identifier decides.
            let order = [try key(1, 2), try key(1, 10), try key(1, "a"), try key(2, 1), try key("a", 1), try key(.bytes([1]), 1)]
            try seed(store, order.reversed().map { line($0, 7) } + [line(try key(3, 3), 8)])
            var sorted = DataStoreRequest(itemType: "Line")
            sorted.filter = .attribute("pos") == 7
            sorted.setSort(byKey: "pos", ascending: false)
            #expect(try ids(store.read { try $0.items(forRequest: sorted) }) == order)
            #expect(try ids(allItems(store, "Line")) == Array(order[0..<4]) + [try key(3, 3)] + Array(order[4...]))
            var window = sorted
            window.offset = 2
            window.limit = 2
            #expect(try ids(store.read { try $0.items(forRequest: window) }) == Array(order[2..<4]))
            #expect(try store.read { try $0.countItems(forRequest: sorted) } == 6)
            #expect(try store.writeSync { try $0.updateItems(forRequest: sorted, setting: ["pos": 9]) } == 6)
            var nine = DataStoreRequest(itemType: "Line")
            nine.filter = .attribute("pos") == 9
            #expect(try store.writeSync { try $0.deleteItems(forRequest: nine) } == 6)
            #expect(try ids(allItems(store, "Line")) == [try key(3, 3)])
        },
        ConformanceTest("composite identifiers mix with integer, string and bytes identifiers in one type and sort after them",
                        group: .identifiers) { context in
            let store = try context.makeStore()
            let expected: [ItemID] = [
                -4, 5, "5", "x", .bytes([1]), try key(1, 2), try key(1, 2, 3), try key(5, "5"), try key("x", .bytes([0])),
            ]
            try seed(store, expected.reversed().map { line($0, 1) })
            #expect(try ids(allItems(store, "Line")) == expected)
            #expect(try store.read { try $0.item(ofType: "Line", id: 5) }?.id == 5)
            #expect(try store.read { try $0.item(ofType: "Line", id: key(1, 2, 3)) }?.id == key(1, 2, 3))
            #expect(try store.writeSync { try $0.deleteItem(ofType: "Line", id: key(1, 2)) })
            #expect(try ids(allItems(store, "Line")) == expected.filter { $0 != (try? key(1, 2)) })
        },
        ConformanceTest("a hand-built composite identifier of fewer than two components, or nesting one, is refused when written",
                        group: .identifiers) { context in
            let store = try context.makeStore()
            let invalid: [ItemID] = [.composite([]), .composite([1]), .composite([1, .composite([2, 3])])]
            for id in invalid {
                let inserted = expectError(.invalidArgument) { try store.writeSync { try $0.insert(line(id, 1)) } }
                #expect(inserted?.message.contains("Line") == true, "\(inserted?.message ?? "no error")")
                expectError(.invalidArgument) { try store.writeSync { try $0.save(line(id, 1)) } }
            }
            #expect(try allItems(store, "Line").isEmpty)
        },
        ConformanceTest("composite identifiers survive tearDown and reopening", group: .identifiers,
                        requires: [.persistent]) { context in
            let first = try context.makeStore()
            let stored = [line(try key(1, 2), 1), line(try key("a", .bytes([0, 1]), -3), 2), line(7, 3)]
            try seed(first, stored)
            try first.tearDown()
            let second = try context.makeStore()
            #expect(try allItems(second, "Line") == [stored[2], stored[0], stored[1]])
            #expect(try second.read { try $0.item(ofType: "Line", id: key("a", .bytes([0, 1]), -3)) } == stored[1])
        },
        ConformanceTest("a child store inserts, updates and deletes items with composite identifiers, and its parent merges them",
                        group: .children) { context in
            let parent = try context.makeStore()
            try seed(parent, [line(try key(1, 1), 1), line(try key(1, 2), 1), line(try key(2, 1), 1)])
            let child = try parent.makeChildDataStore()
            try child.setup()
            try child.writeSync { accessor in
                try accessor.insert(line(try key(3, 1), 4))
                try accessor.save(line(try key(1, 2), 2))
                try accessor.deleteItem(ofType: "Line", id: try key(2, 1))
            }
            #expect(try ids(allItems(child, "Line")) == [try key(1, 1), try key(1, 2), try key(3, 1)])
            #expect(try child.read { try $0.item(ofType: "Line", id: key(1, 2)) }?["pos"] == 2)
            #expect(try ids(allItems(parent, "Line")) == [try key(1, 1), try key(1, 2), try key(2, 1)])
            try parent.merge(child)
            #expect(try allItems(parent, "Line") == [line(try key(1, 1), 1), line(try key(1, 2), 2), line(try key(3, 1), 4)])
        },
        ConformanceTest("a live query over items with composite identifiers yields each changed result", group: .concurrency) { context in
            let store = try context.makeStore()
            let (first, second) = (try key(1, 1), try key(1, 0))
            try seed(store, [line(first, 1)])
            let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Line")))
            try await recorder.waitFor { $0.count == 1 }
            try store.writeSync { accessor in try accessor.insert(line(second, 2)) }
            try await recorder.waitFor { $0.last.map(ids) == [second, first] }
            try store.writeSync { accessor in _ = try accessor.deleteItem(ofType: "Line", id: first) }
            try await recorder.waitFor { $0.last.map(ids) == [second] }
            await recorder.cancel()
        },
    ]
}
