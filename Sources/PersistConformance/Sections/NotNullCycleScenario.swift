import Foundation
import Persist
import Testing

/// A child that passed unique values round among items of adopted tables whose unique columns
/// cannot be empty, for the SQL engines' tests: `person (id, email NOT NULL UNIQUE)` holding
/// 1 `a@x`, 2 `b@x`, 3 `c@x`, and `line (id, position NOT NULL UNIQUE CHECK (position > 0), text)`
/// holding 1, 2, 3 at positions 1, 2, 3.
///
/// ```swift
/// try NotNullCycleScenario.run(on: store)   // the store adopted both tables
/// ```
public enum NotNullCycleScenario {
    /// Swaps two emails and moves the last line to the top in a child, each through a temporary
    /// value as the parent would take them in a block, then checks that the merge applies them.
    public static func run(on store: any DataStore) throws {
        let child = try store.makeChildDataStore()
        try child.setup()
        defer { try? child.tearDown() }
        try child.writeSync { accessor in
            try accessor.save(Item(itemType: "person", id: 1, attributes: ["email": "tmp"]))
            try accessor.save(Item(itemType: "person", id: 2, attributes: ["email": "a@x"]))
            try accessor.save(Item(itemType: "person", id: 1, attributes: ["email": "b@x"]))
            try accessor.save(Item(itemType: "line", id: 3, attributes: ["position": 100, "text": "three"]))
            try accessor.save(Item(itemType: "line", id: 2, attributes: ["position": 3, "text": "two"]))
            try accessor.save(Item(itemType: "line", id: 1, attributes: ["position": 2, "text": "one"]))
            try accessor.save(Item(itemType: "line", id: 3, attributes: ["position": 1, "text": "three"]))
        }
        try store.merge(child)
        #expect(try allItems(store, "person").map { $0["email"] } == ["b@x", "a@x", "c@x"])
        #expect(try allItems(store, "line").map { $0["position"] } == [2, 3, 1])
        #expect(child.changeCount == 0)
    }
}
