import Foundation
import Persist
import Testing

/// Declared indexes and unique constraints.
enum IndexTests {
    static func user(_ id: ItemID, _ attributes: [String: Value]) -> Item {
        Item(itemType: "User", id: id, attributes: attributes)
    }

    static func declareEmail(_ store: any DataStore) throws {
        try store.writeSync { accessor in try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true) }
    }

    static func attributes(_ indexes: [DataStoreIndex]) -> [[String]] { indexes.map(\.attributes) }

    static let all: [ConformanceTest] = [
        ConformanceTest("ensureIndex declares an index once and the store lists it", group: .indexes) { context in
            let store = try context.makeStore()
            let first = try store.writeSync { accessor in
                (try accessor.ensureIndex(ofType: "Restaurant", on: ["city"], unique: false),
                 try accessor.ensureIndex(ofType: "Restaurant", on: ["city"], unique: false))
            }
            #expect(first == (true, false))
            #expect(try store.writeSync { accessor in try accessor.ensureIndex(ofType: "Restaurant", on: ["city"], unique: false) } == false)
            let indexes = try store.indexes(ofType: "Restaurant")
            #expect(attributes(indexes) == [["city"]])
            #expect(indexes.first?.isUnique == false)
            #expect(try store.indexes(ofType: "Other").isEmpty)
            // A unique index on the same attributes is another declaration; it then satisfies both.
            #expect(try store.writeSync { accessor in try accessor.ensureIndex(ofType: "Restaurant", on: ["city"], unique: true) })
            #expect(try store.writeSync { accessor in try accessor.ensureIndex(ofType: "Restaurant", on: ["city"], unique: false) } == false)
            #expect(try store.indexes(ofType: "Restaurant").contains { $0.isUnique && $0.attributes == ["city"] })
            // Equality queries give the same answers with the index.
            try seed(store, [Item(itemType: "Restaurant", id: "a", attributes: ["city": "Leeds"]),
                             Item(itemType: "Restaurant", id: "b", attributes: ["city": "York"])])
            var request = DataStoreRequest(itemType: "Restaurant")
            request.setFilter(whereAttribute: "city", equalsValue: "York")
            #expect(try store.read { accessor in try accessor.items(forRequest: request) }.map(\.id) == ["b"])
        },
        ConformanceTest("indexes(ofType:) lists declarations in the order they were made, in a block and after it",
                        group: .indexes) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor in
                try accessor.ensureIndex(ofType: "Place", on: ["zip"], unique: false)
                try accessor.ensureIndex(ofType: "Place", on: ["city"], unique: false)
            }
            let inBlock = try store.writeSync { accessor in
                try accessor.ensureIndex(ofType: "Place", on: ["name", "city"], unique: true)
                return try accessor.indexes(ofType: "Place")
            }
            let declared: [[String]] = [["zip"], ["city"], ["name", "city"]]
            #expect(attributes(inBlock) == declared)
            #expect(attributes(try store.indexes(ofType: "Place")) == declared)
            #expect(try store.indexes(ofType: "Place").map(\.isUnique) == [false, false, true])
        },
        ConformanceTest("a unique index refuses a conflicting write block whole, naming both items", group: .indexes) { context in
            let store = try context.makeStore()
            try declareEmail(store)
            try seed(store, [user("a", ["email": "a@example.com"])])
            let error = expectError(.uniqueViolation) {
                try store.writeSync { accessor in
                    try accessor.insert(user("c", ["email": "c@example.com"]))
                    try accessor.insert(user("b", ["email": "a@example.com"]))
                }
            }
            #expect(Set(error?.items ?? []) == [ItemReference(itemType: "User", id: "a"), ItemReference(itemType: "User", id: "b")])
            #expect(error?.path != nil)
            #expect(try allItems(store, "User").map(\.id) == ["a"])
            // Through save, a mutable item and an update too; an item may keep its own value.
            expectError(.uniqueViolation) {
                try store.writeSync { accessor in try accessor.save(user("b", ["email": "a@example.com"])) }
            }
            try seed(store, [user("b", ["email": "b@example.com"])])
            expectError(.uniqueViolation) {
                try store.writeSync { accessor in
                    let b = try accessor.mutableVersion(ofItem: user("b", [:]))
                    b?["email"] = "a@example.com"
                }
            }
            expectError(.uniqueViolation) {
                try store.writeSync { accessor in
                    try accessor.updateItems(forRequest: DataStoreRequest(itemType: "User"), setting: ["email": "z@example.com"])
                }
            }
            try store.writeSync { accessor in
                try accessor.save(user("a", ["email": "a@example.com", "name": "Ann"]))
                try accessor.updateItems(forRequest: DataStoreRequest(itemType: "User", limit: 1), setting: ["email": "new@example.com"])
            }
            #expect(try allItems(store, "User").map { $0["email"] } == ["new@example.com", "b@example.com"])
        },
        ConformanceTest("uniqueness compares values as predicates do and ignores items without the attributes",
                        group: .indexes) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor in
                try accessor.ensureIndex(ofType: "Seat", on: ["row", "number"], unique: true)
            }
            try seed(store, [Item(itemType: "Seat", id: "a", attributes: ["row": "A", "number": 1]),
                             Item(itemType: "Seat", id: "b", attributes: ["row": "B", "number": 1]),
                             Item(itemType: "Seat", id: "c", attributes: ["row": "A"]),
                             Item(itemType: "Seat", id: "d", attributes: ["row": "A"])])
            expectError(.uniqueViolation) {
                try seed(store, [Item(itemType: "Seat", id: "e", attributes: ["row": "A", "number": 1.0])])
            }
            try seed(store, [Item(itemType: "Seat", id: "f", attributes: ["row": "a", "number": 1])])
            #expect(try allItems(store, "Seat").map(\.id) == ["a", "b", "c", "d", "f"])
        },
        ConformanceTest("a unique index over items that already share values is refused and not declared",
                        group: .indexes) { context in
            let store = try context.makeStore()
            try seed(store, [user("a", ["email": "x"]), user("b", ["email": "x"]), user("c", ["email": "y"])])
            let error = expectError(.uniqueViolation) { try declareEmail(store) }
            #expect(Set(error?.items ?? []) == [ItemReference(itemType: "User", id: "a"), ItemReference(itemType: "User", id: "b")])
            #expect(try store.indexes(ofType: "User").isEmpty)
            // Refused inside a block that catches the error and commits: still not declared, and
            // the next declaration or write to the type is not hindered by it.
            try store.writeSync { accessor in
                expectError(.uniqueViolation) { try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true) }
                try accessor.save(user("c", ["email": "y", "phone": "1"]))
            }
            #expect(try store.indexes(ofType: "User").isEmpty)
            #expect(try store.writeSync { accessor in try accessor.ensureIndex(ofType: "User", on: ["phone"], unique: true) })
            try seed(store, [user("d", ["email": "x"])])
            // An index declared in a block that rolls back is not kept either.
            try store.writeSync { accessor -> TransactionStatus in
                try accessor.ensureIndex(ofType: "User", on: ["name"], unique: false)
                return .rollback
            }
            #expect(attributes(try store.indexes(ofType: "User")) == [["phone"]])
            expectError(.invalidArgument) {
                try store.writeSync { accessor in try accessor.ensureIndex(ofType: "User", on: [], unique: false) }
            }
            expectError(.invalidArgument) {
                try store.writeSync { accessor in try accessor.ensureIndex(ofType: "User", on: ["a", "a"], unique: false) }
            }
            // Two spellings of one name are one attribute to an item, so they repeat it too.
            expectError(.invalidArgument) {
                try store.writeSync { accessor in
                    try accessor.ensureIndex(ofType: "User", on: ["caf\u{E9}", "cafe\u{301}"], unique: true)
                }
            }
            #expect(attributes(try store.indexes(ofType: "User")) == [["phone"]])
        },
        ConformanceTest("a child checks its writes against the parent's unique indexes and its own; "
                        + "a merge that would break one fails whole", group: .indexes) { context in
            let parent = try context.makeStore()
            try declareEmail(parent)
            try seed(parent, [user("a", ["email": "a"])])
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            expectError(.uniqueViolation) { try seed(child, [user("b", ["email": "a"])]) }
            try child.writeSync { accessor in
                try accessor.ensureIndex(ofType: "User", on: ["phone"], unique: true)
                try accessor.insert(user("b", ["email": "b", "phone": "1"]))
            }
            expectError(.uniqueViolation) { try seed(child, [user("c", ["email": "c", "phone": "1"])]) }
            #expect(attributes(try child.indexes(ofType: "User")) == [["email"], ["phone"]])
            // Meanwhile the parent takes the child's email: the merge would break the index.
            try seed(parent, [user("p", ["email": "b"])])
            expectError(.uniqueViolation) { try parent.merge(child) }
            #expect(try allItems(parent, "User").map(\.id) == ["a", "p"])
            #expect(attributes(try parent.indexes(ofType: "User")) == [["email"]])
            try parent.writeSync { accessor in try accessor.deleteItem(ofType: "User", id: "p") }
            try parent.merge(child)
            #expect(try allItems(parent, "User").map(\.id) == ["a", "b"])
            #expect(attributes(try parent.indexes(ofType: "User")) == [["email"], ["phone"]])
        },
        ConformanceTest("a child lists an index it declared once, also when its parent has declared it since, "
                        + "as the parent lists it after the merge", group: .indexes) { context in
            let parent = try context.makeStore()
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            try child.writeSync { accessor in
                try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true)
                try accessor.ensureIndex(ofType: "User", on: ["phone"], unique: false)
            }
            try parent.writeSync { accessor in
                try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true)
                try accessor.ensureIndex(ofType: "User", on: ["phone"], unique: true)
            }
            #expect(try child.indexes(ofType: "User") == parent.indexes(ofType: "User"))
            #expect(try child.writeSync { accessor in try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true) } == false)
            let seen = try child.indexes(ofType: "User")
            try parent.merge(child)
            #expect(try parent.indexes(ofType: "User") == seen)
        },
        ConformanceTest("a child that deleted an item and gave its unique value to one ordered before it merges",
                        group: .indexes) { context in
            let parent = try context.makeStore()
            try declareEmail(parent)
            try seed(parent, [user("b", ["email": "x"])])
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            try child.writeSync { accessor in
                try accessor.deleteItem(ofType: "User", id: "b")
                try accessor.insert(user("a", ["email": "x"]))
            }
            try parent.merge(child)
            #expect(try allItems(parent, "User") == [user("a", ["email": "x"])])
        },
        ConformanceTest("an updateItems naming an indexed attribute in another Unicode spelling is checked by the index",
                        group: .indexes) { context in
            // An item holds one attribute for both spellings (its attributes are a Swift
            // dictionary), so every store updates the indexed value, and must check it.
            let store = try context.makeStore()
            let composed = "\u{E9}mail", decomposed = "e\u{301}mail"
            try store.writeSync { accessor in try accessor.ensureIndex(ofType: "User", on: [composed], unique: true) }
            try seed(store, [user("a", [composed: "a@example.com"]), user("b", [composed: "b@example.com"])])
            var request = DataStoreRequest(itemType: "User")
            request.setFilter(whereAttribute: composed, equalsValue: "b@example.com")
            let error = expectError(.uniqueViolation) {
                try store.writeSync { accessor in try accessor.updateItems(forRequest: request, setting: [decomposed: "a@example.com"]) }
            }
            #expect(Set(error?.items ?? []) == [ItemReference(itemType: "User", id: "a"), ItemReference(itemType: "User", id: "b")])
            #expect(try allItems(store, "User").map { $0[composed] } == ["a@example.com", "b@example.com"])
        },
        ConformanceTest("declared indexes survive reopening the store", group: .indexes,
                        requires: [.persistent, .persistentIndexes]) { context in
            let store = try context.makeStore()
            try declareEmail(store)
            try seed(store, [user("a", ["email": "a"])])
            try store.tearDown()
            let reopened = try context.makeStore()
            #expect(attributes(try reopened.indexes(ofType: "User")) == [["email"]])
            expectError(.uniqueViolation) { try seed(reopened, [user("b", ["email": "a"])]) }
        },
    ]
}
