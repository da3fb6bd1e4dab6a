import Foundation
import Persist
import Testing

/// Writing the in-place changes of mutable items.
enum MutableFlushTests {
    static func user(_ id: String, _ attributes: [String: Value]) -> Item {
        Item(itemType: "User", id: .string(id), attributes: attributes)
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("in-place changes the store refuses fail the whole block, even when the caller catches the error",
                        group: .blocks) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor in try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true) }
            let users = [user("u1", ["email": "x"]), user("u2", ["email": "y"]), user("u3", ["name": "old"])]
            try seed(store, users)
            let error = expectError(.uniqueViolation) {
                try store.writeSync { accessor in
                    let u2 = try #require(try accessor.mutableVersion(ofItem: user("u2", [:])))
                    let u3 = try #require(try accessor.mutableVersion(ofItem: user("u3", [:])))
                    u2["email"] = "x"
                    u3["name"] = "new"
                    // The next accessor call writes both changes; u2's is refused.
                    expectError(.uniqueViolation) { try accessor.item(ofType: "User", id: "nobody") }
                    u3["age"] = 42
                    // Later calls throw the same error: the block cannot go on without u3's change.
                    expectError(.uniqueViolation) { try accessor.countItems(forRequest: DataStoreRequest(itemType: "User")) }
                }
            }
            #expect(error?.items.contains(ItemReference(itemType: "User", id: "u2")) == true)
            #expect(try allItems(store, "User") == users)
        },
    ]
}
