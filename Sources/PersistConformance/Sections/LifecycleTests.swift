import Foundation
import Persist
import Testing

/// setup / tearDown, and persistence across them.
enum LifecycleTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("operations before setup() throw misuse", group: .lifecycle) { context in
            let store = try context.makeUnopenedStore()
            expectError(.misuse) { try store.read { _ in 1 } }
            expectError(.misuse) { try store.writeSync { _ in 1 } }
            let failure = Locked<(any Error)?>(nil)
            store.writeAsync({ _ in 1 }, completion: { result in
                if case .failure(let error) = result { failure.withLock { $0 = error } }
            })
            try store.flush()
            #expect((failure.withLock { $0 } as? DataStoreError)?.code == .misuse)
        },
        ConformanceTest("operations after tearDown() throw misuse, and setup() reopens", group: .lifecycle) { context in
            let store = try context.makeStore()
            try store.tearDown()
            expectError(.misuse) { try store.read { _ in 1 } }
            expectError(.misuse) { try store.writeSync { _ in 1 } }
            try store.setup()
            #expect(try store.read { _ in 7 } == 7)
        },
        ConformanceTest("setup() and tearDown() twice are harmless", group: .lifecycle) { context in
            let store = try context.makeStore()
            try store.setup()
            try seed(store, [Item(itemType: "Note", id: "a")])
            try store.tearDown()
            try store.tearDown()
            try store.setup()
            try store.setup()
            #expect(try allItems(store, "Note").count == 1)
        },
        ConformanceTest("tearDown() waits for queued asynchronous writes", group: .lifecycle) { context in
            let store = try context.makeStore()
            let completed = Locked(0)
            for index in 0..<20 {
                store.writeAsync({ accessor in
                    try accessor.insert(Item(itemType: "Note", id: .int(Int64(index))))
                }, completion: { result in
                    if case .success = result { completed.withLock { $0 += 1 } }
                })
            }
            try store.tearDown()
            #expect(completed.withLock { $0 } == 20)
            try store.setup()
            #expect(try allItems(store, "Note").count == 20)
        },
        ConformanceTest("tearDown() inside a block throws misuse instead of deadlocking", group: .lifecycle) { context in
            let store = try context.makeStore()
            let fromRead = try store.read { _ in expectError(.misuse) { try store.tearDown() } }
            let fromWrite = try store.writeSync { _ in expectError(.misuse) { try store.tearDown() } }
            #expect(fromRead != nil && fromWrite != nil)
            #expect(try store.read { _ in "still open" } == "still open")
        },
        ConformanceTest("committed data survives tearDown() and a new store object", group: .lifecycle,
                        requires: .persistent) { context in
            let store = try context.makeStore()
            let item = Item(itemType: "Note", id: "kept", attributes: ["text": "hello", "n": 3])
            try seed(store, [item])
            try store.tearDown()
            let reopened = try context.makeStore()
            #expect(try allItems(reopened, "Note") == [item])
        },
        ConformanceTest("a rolled-back block leaves nothing behind after reopening", group: .lifecycle,
                        requires: .persistent) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Note", id: "kept")])
            #expect(throws: DeliberateFailure(tag: 1)) {
                try store.writeSync { accessor throws in
                    try accessor.insert(Item(itemType: "Note", id: "dropped"))
                    throw DeliberateFailure(tag: 1)
                }
            }
            try store.tearDown()
            let reopened = try context.makeStore()
            #expect(try allItems(reopened, "Note").map(\.id) == ["kept"])
        },
    ]
}
