import Foundation
import Persist
import Testing

/// Waiting on a child store from inside a block of its parent.
enum ChildReentrancyTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("a child's waiting operations inside a read block of its parent are misuse, not a possible deadlock",
                        group: .children) { context in
            let parent = try context.makeStore()
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            let note = Item(itemType: "Note", id: "n", attributes: ["text": "x"])
            try parent.read { _ in
                let error = expectError(.misuse) { try child.writeSync { accessor in try accessor.insert(note) } }
                #expect(error?.message.contains("inside a read block of its parent") == true)
                expectError(.misuse) { try child.flush() }
                // Queuing does not wait, and is allowed.
                child.writeAsync { accessor in try accessor.insert(note) }
            }
            try child.flush()
            #expect(try allItems(child, "Note") == [note])
            // A grandchild inside a write block of the child, which reads the parent, the same.
            let grandchild = try child.makeChildDataStore()
            try grandchild.setup()
            defer { try? grandchild.tearDown() }
            try child.writeSync { _ in
                expectError(.misuse) { try grandchild.writeSync { accessor in try accessor.deleteItem(ofType: "Note", id: "n") } }
            }
            // The parent's writeSync inside a write block of the child names the child's read of it.
            let inChild = expectError(.misuse) { try child.writeSync { _ in try parent.writeSync { _ in } } }
            #expect(inChild?.message.contains("or a write block of one of its child stores") == true)
        },
        ConformanceTest("a child's waiting operations inside a write block of its parent are misuse, not a possible deadlock",
                        group: .children) { context in
            // A merge of the child holds the child's queue while it waits for the parent's, so a
            // parent's write block that waits for the child's queue could stop both.
            let parent = try context.makeStore()
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            let grandchild = try child.makeChildDataStore()
            try grandchild.setup()
            defer { try? grandchild.tearDown() }
            let note = Item(itemType: "Note", id: "n", attributes: ["text": "x"])
            try parent.writeSync { _ in
                let error = expectError(.misuse) { try child.writeSync { accessor in try accessor.insert(note) } }
                #expect(error?.message.contains("inside a write block (or escape hatch) of its parent") == true)
                expectError(.misuse) { try child.flush() }
                expectError(.misuse) { try child.tearDown() }
                expectError(.misuse) { try grandchild.writeSync { accessor in try accessor.insert(note) } }
                // Reading the child and queuing a write do not wait for its queue, and are allowed.
                let seen = try child.read { accessor in try accessor.countItems(forRequest: DataStoreRequest(itemType: "Note")) }
                #expect(seen == 0)
                child.writeAsync { accessor in try accessor.insert(note) }
            }
            try child.flush()
            #expect(try allItems(child, "Note") == [note])
            #expect(try allItems(parent, "Note").isEmpty)
        },
    ]
}
