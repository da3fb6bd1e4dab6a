import Foundation
import Persist
import Testing

/// The errors of unique indexes read the same on every store, whether Persist or the engine
/// refused the write.
enum UniqueErrorTests {
    static func user(_ id: Int64, _ email: Value) -> Item {
        Item(itemType: "User", id: .int(id), attributes: ["email": email])
    }

    /// Expects `error` to start with `message` and to name where it happened.
    static func expectMessage(_ error: DataStoreError?, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error?.message))", sourceLocation: sourceLocation)
        #expect(error.flatMap { error in error.path.map { error.message.contains($0) } } == true,
                "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("a refused write or declaration names the items and the values they would share, in one message on every store",
                        group: .indexes) { context in
            let store = try context.makeStore()
            try seed(store, [user(1, "a@example.com"), user(2, "b@example.com"), user(3, "b@example.com")])
            let declared = expectError(.uniqueViolation) {
                try store.writeSync { accessor in try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true) }
            }
            expectMessage(declared, "cannot declare the unique index on User(email): User/2, User/3 already share its values; "
                + "nothing was declared.")
            try store.writeSync { accessor in
                try accessor.deleteItem(ofType: "User", id: 3)
                try accessor.ensureIndex(ofType: "User", on: ["email"], unique: true)
            }
            let shared = "would share the values of the unique index on User(email) (email: \"a@example.com\"); "
                + "nothing of the write was stored."
            let inserted = expectError(.uniqueViolation) { try seed(store, [user(4, "a@example.com")]) }
            expectMessage(inserted, "User/4, User/1 " + shared)
            #expect(inserted?.items == [ItemReference(itemType: "User", id: 4), ItemReference(itemType: "User", id: 1)])
            var second = DataStoreRequest(itemType: "User")
            second.setFilter(whereAttribute: "email", equalsValue: "b@example.com")
            let updated = expectError(.uniqueViolation) {
                try store.writeSync { accessor in try accessor.updateItems(forRequest: second, setting: ["email": "a@example.com"]) }
            }
            expectMessage(updated, "User/2, User/1 " + shared)
            #expect(try allItems(store, "User").map { $0["email"] } == ["a@example.com", "b@example.com"])
        },
    ]
}
