import Foundation
import Persist
import Testing

/// Merging children whose items exchanged the values of a unique index.
enum MergeUniqueTests {
    static func user(_ id: String, _ email: String) -> Item {
        Item(itemType: "User", id: .string(id), attributes: ["email": .string(email)])
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("a child that moved a unique value from one item to another merges", group: .indexes) { context in
            let parent = try context.makeStore()
            try parent.writeSync { accessor in try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true) }
            try seed(parent, [user("b", "x"), user("c", "z")])
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            // b gives x up to a, and c gives z up to 0: each taker comes first in identifier order.
            try child.writeSync { accessor in
                try accessor.save(user("b", "y"))
                try accessor.insert(user("a", "x"))
                try accessor.save(user("c", "w"))
                try accessor.insert(user("0", "z"))
            }
            try parent.merge(child)
            #expect(try allItems(parent, "User") == [user("0", "z"), user("a", "x"), user("b", "y"), user("c", "w")])
        },
        ConformanceTest("a child whose items swapped unique values merges, and a real conflict still fails whole",
                        group: .indexes) { context in
            let parent = try context.makeStore()
            try parent.writeSync { accessor in try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true) }
            try seed(parent, [user("a", "x"), user("b", "y"), user("c", "z")])
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            // A swap through a value no item holds, as the child's own index requires.
            try child.writeSync { accessor in
                try accessor.save(user("a", "tmp"))
                try accessor.save(user("b", "x"))
                try accessor.save(user("a", "y"))
            }
            try parent.merge(child)
            #expect(try allItems(parent, "User") == [user("a", "y"), user("b", "x"), user("c", "z")])
            // The parent meanwhile takes a value the child gives to another item: nothing merges.
            try child.writeSync { accessor in try accessor.save(user("c", "w")) }
            try seed(parent, [user("d", "w")])
            expectError(.uniqueViolation) { try parent.merge(child) }
            #expect(try allItems(parent, "User").map { $0["email"] } == ["y", "x", "z", "w"])
        },
        ConformanceTest("a child that removed the parent's duplicates and then declared a unique index over them merges",
                        group: .indexes) { context in
            let parent = try context.makeStore()
            try seed(parent, [user("a", "x"), user("b", "x"), user("c", "y"), user("d", "y")])
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            // One duplicate deleted, the other given a value of its own: the child's items are unique.
            try child.writeSync { accessor in
                try accessor.deleteItem(ofType: "User", id: "b")
                try accessor.save(user("d", "z"))
                try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true)
            }
            try parent.merge(child)
            #expect(try allItems(parent, "User") == [user("a", "x"), user("c", "y"), user("d", "z")])
            #expect(try parent.indexes(ofType: "User").map(\.attributes) == [["email"]])
            expectError(.uniqueViolation) { try seed(parent, [user("e", "x")]) }
            // The parent meanwhile made a duplicate the child's index refuses: nothing merges.
            try child.writeSync { accessor in
                try accessor.ensureIndex(ofType: "User", on: ["name"], unique: true)
                try accessor.save(Item(itemType: "User", id: "a", attributes: ["email": "x", "name": "Ann"]))
            }
            try parent.writeSync { accessor in
                try accessor.save(Item(itemType: "User", id: "c", attributes: ["email": "y", "name": "Ann"]))
            }
            expectError(.uniqueViolation) { try parent.merge(child) }
            #expect(try allItems(parent, "User").map { $0["name"] } == [nil, "Ann", nil])
            #expect(try parent.indexes(ofType: "User").map(\.attributes) == [["email"]])
        },
    ]
}
