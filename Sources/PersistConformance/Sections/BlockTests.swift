import Foundation
import Persist
import Testing

/// Read and write blocks: values, atomicity, rollback, mutable items, accessor validity,
/// reentrancy, asynchronous writes and flush.
enum BlockTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("read and writeSync return their block's value", group: .blocks) { context in
            let store = try context.makeStore()
            #expect(try store.writeSync { _ in "written" } == "written")
            #expect(try store.read { _ in [1, 2, 3] } == [1, 2, 3])
        },
        ConformanceTest("a throwing write block rolls back everything and rethrows the same error",
                        group: .blocks) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Note", id: "keep", attributes: ["v": 1])])
            #expect(throws: DeliberateFailure(tag: 7)) {
                try store.writeSync { accessor throws in
                    try accessor.insert(Item(itemType: "Note", id: "new"))
                    try accessor.save(Item(itemType: "Note", id: "keep", attributes: ["v": 2]))
                    _ = try accessor.createItem(ofType: "Other")
                    _ = try accessor.deleteAllItems(ofType: "Note")
                    throw DeliberateFailure(tag: 7)
                }
            }
            #expect(try allItems(store, "Note") == [Item(itemType: "Note", id: "keep", attributes: ["v": 1])])
            #expect(try allItems(store, "Other").isEmpty)
        },
        ConformanceTest("returning TransactionStatus.rollback discards the block without an error",
                        group: .blocks) { context in
            let store = try context.makeStore()
            let status = try store.writeSync { accessor -> TransactionStatus in
                let item = try accessor.createItem(ofType: "Note")
                item["v"] = 1
                return .rollback
            }
            #expect(status == .rollback)
            #expect(try allItems(store, "Note").isEmpty)
        },
        ConformanceTest("returning TransactionStatus.commit keeps the block", group: .blocks) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor -> TransactionStatus in
                try accessor.insert(Item(itemType: "Note", id: "n"))
                return .commit
            }
            #expect(try allItems(store, "Note").map(\.id) == ["n"])
        },
        ConformanceTest("reads inside a write block see the block's own changes", group: .blocks) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Note", id: "a", attributes: ["v": 1])])
            try store.writeSync { accessor throws in
                try accessor.insert(Item(itemType: "Note", id: "b", attributes: ["v": 2]))
                try accessor.delete(item: Item(itemType: "Note", id: "a"))
                var request = DataStoreRequest(itemType: "Note")
                #expect(try accessor.items(forRequest: request).map(\.id) == ["b"])
                request.filter = .attribute("v") == 2
                #expect(try accessor.countItems(forRequest: request) == 1)
                #expect(try accessor.item(ofType: "Note", id: "a") == nil)
                #expect(try accessor.firstItem(forRequest: request)?.id == "b")
            }
        },
        ConformanceTest("in-place changes to mutable items are saved and visible to later reads in the block",
                        group: .blocks) { context in
            let store = try context.makeStore()
            try seed(store, (1...3).map { Item(itemType: "Note", id: .int($0), attributes: ["v": .int($0)]) })
            try store.writeSync { accessor throws in
                for item in try accessor.mutableItems(forRequest: DataStoreRequest(itemType: "Note")) {
                    item["v"] = .int((item["v"]?.intValue ?? 0) * 10)
                }
                var request = DataStoreRequest(itemType: "Note")
                request.filter = .attribute("v") >= 20
                #expect(try accessor.countItems(forRequest: request) == 2)
            }
            #expect(try allItems(store, "Note").map { $0["v"] } == [10, 20, 30])
        },
        ConformanceTest("one stored item is one mutable object within a block", group: .blocks) { context in
            let store = try context.makeStore()
            let note = Item(itemType: "Note", id: "n", attributes: ["v": 1])
            try seed(store, [note])
            try store.writeSync { accessor throws in
                let request = DataStoreRequest(itemType: "Note")
                let first = try #require(try accessor.firstMutableItem(forRequest: request))
                first["v"] = 2
                let again = try #require(try accessor.mutableItems(forRequest: request).first)
                let version = try #require(try accessor.mutableVersion(ofItem: note))
                #expect(first === again && again === version)
                #expect(version["v"] == 2)
            }
        },
        ConformanceTest("mutableVersion(ofItem:) edits a stored item and is nil for a missing one",
                        group: .blocks) { context in
            let store = try context.makeStore()
            let note = Item(itemType: "Note", id: "n", attributes: ["v": 1])
            try seed(store, [note])
            try store.writeSync { accessor throws in
                let mutable = try #require(try accessor.mutableVersion(ofItem: note))
                mutable["v"] = 5
                #expect(try accessor.mutableVersion(ofItem: Item(itemType: "Note", id: "missing")) == nil)
            }
            #expect(try allItems(store, "Note").first?["v"] == 5)
        },
        ConformanceTest("a mutable item changed after its block is not saved and set() throws misuse",
                        group: .blocks) { context in
            let store = try context.makeStore()
            let escaped = try store.writeSync { accessor throws in
                let item = try accessor.createItem(ofType: "Note", id: "n")
                item["v"] = 1
                return item
            }
            escaped["v"] = 2
            #expect(escaped["v"] == 1)
            expectError(.misuse) { try escaped.set(3, forKey: "v") }
            #expect(try allItems(store, "Note").first?["v"] == 1)
        },
        ConformanceTest("changing a deleted mutable item is misuse that fails the block", group: .blocks) { context in
            let store = try context.makeStore()
            let note = Item(itemType: "Note", id: "n", attributes: ["v": 1])
            try seed(store, [note, Item(itemType: "Note", id: "m")])
            try store.writeSync { accessor throws in
                let item = try #require(try accessor.mutableVersion(ofItem: note))
                try accessor.delete(item: item)
                #expect(item.isDeleted)
                expectError(.misuse) { try item.set(2, forKey: "v") }
            }
            #expect(try allItems(store, "Note").map(\.id) == ["m"])
            expectError(.misuse) {
                try store.writeSync { accessor in
                    try accessor.deleteItem(ofType: "Note", id: "m")
                    let item = try accessor.createItem(ofType: "Note", id: "x")
                    try accessor.delete(item: item)
                    item["v"] = 3
                }
            }
            #expect(try allItems(store, "Note").map(\.id) == ["m"])
        },
        ConformanceTest("a read accessor used after its block throws misuse", group: .blocks) { context in
            let store = try context.makeStore()
            let escaped = try store.read { accessor in accessor }
            let request = DataStoreRequest(itemType: "Note")
            expectError(.misuse) { try escaped.items(forRequest: request) }
            expectError(.misuse) { try escaped.countItems(forRequest: request) }
            expectError(.misuse) { try escaped.firstItem(forRequest: request) }
            expectError(.misuse) { try escaped.item(ofType: "Note", id: "n") }
            expectError(.misuse) { try escaped.itemTypes() }
        },
        ConformanceTest("a write accessor used after its block throws misuse and writes nothing",
                        group: .blocks) { context in
            let store = try context.makeStore()
            let escaped = try store.writeSync { accessor in accessor }
            expectError(.misuse) { try escaped.insert(Item(itemType: "Note", id: "n")) }
            expectError(.misuse) { try escaped.createItem(ofType: "Note") }
            expectError(.misuse) { try escaped.deleteAllItems(ofType: "Note") }
            expectError(.misuse) { try escaped.mutableItems(forRequest: DataStoreRequest(itemType: "Note")) }
            #expect(try allItems(store, "Note").isEmpty)
        },
        ConformanceTest("writeSync inside a write block throws misuse instead of deadlocking",
                        group: .blocks) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor throws in
                try accessor.insert(Item(itemType: "Note", id: "outer"))
                expectError(.misuse) { try store.writeSync { _ in 1 } }
                expectError(.misuse) { try store.flush() }
            }
            #expect(try allItems(store, "Note").map(\.id) == ["outer"])
        },
        ConformanceTest("writeSync and flush inside a read block throw misuse; writeAsync queues",
                        group: .blocks) { context in
            let store = try context.makeStore()
            try store.read { _ in
                expectError(.misuse) { try store.writeSync { _ in 1 } }
                expectError(.misuse) { try store.flush() }
                store.writeAsync({ accessor in try accessor.insert(Item(itemType: "Note", id: "queued")) },
                                 completion: nil)
            }
            try store.flush()
            #expect(try allItems(store, "Note").map(\.id) == ["queued"])
        },
        ConformanceTest("a read inside a write block sees the committed state", group: .blocks) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Note", id: "old")])
            try store.writeSync { accessor throws in
                try accessor.insert(Item(itemType: "Note", id: "new"))
                let committed = try store.read { reader in
                    try reader.items(forRequest: DataStoreRequest(itemType: "Note")).map(\.id)
                }
                #expect(committed == ["old"])
            }
        },
        ConformanceTest("writeAsync runs in FIFO order with writeSync", group: .blocks) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Log", id: "log", attributes: ["entries": .array([])])])
            func append(_ entry: Int) -> @Sendable (DataStoreReadWriteAccessor) throws -> Void {
                { accessor in
                    let log = try accessor.mutableVersion(ofItem: Item(itemType: "Log", id: "log"))
                    log?["entries"] = .array((log?["entries"]?.arrayValue ?? []) + [.int(Int64(entry))])
                }
            }
            for entry in 0..<10 {
                if entry.isMultiple(of: 3) {
                    try store.writeSync(append(entry))
                } else {
                    store.writeAsync(append(entry), completion: nil)
                }
            }
            try store.flush()
            let entries = try allItems(store, "Log").first?["entries"]
            #expect(entries == .array((0..<10).map { .int(Int64($0)) }))
        },
        ConformanceTest("writeAsync completions receive the value or the error, and failures roll back",
                        group: .blocks) { context in
            let store = try context.makeStore()
            let results = Locked<[String]>([])
            store.writeAsync({ accessor in
                try accessor.insert(Item(itemType: "Note", id: "ok"))
                return 42
            }, completion: { result in
                results.withLock { $0.append((try? result.get()).map { "value \($0)" } ?? "error") }
            })
            store.writeAsync({ accessor -> Int in
                try accessor.insert(Item(itemType: "Note", id: "failed"))
                throw DeliberateFailure(tag: 3)
            }, completion: { result in
                let text: String
                do { text = "value \(try result.get())" } catch { text = "error \(error)" }
                results.withLock { $0.append(text) }
            })
            try store.flush()
            #expect(results.withLock { $0 } == ["value 42", "error \(DeliberateFailure(tag: 3))"])
            #expect(try allItems(store, "Note").map(\.id) == ["ok"])
        },
        ConformanceTest("a completion handler may read and writeSync; flush and tearDown there throw misuse",
                        group: .blocks) { context in
            let store = try context.makeStore()
            let outcome = Locked<(read: Int?, written: Bool, flush: DataStoreError.Code?, tearDown: DataStoreError.Code?)>(
                (nil, false, nil, nil))
            store.writeAsync({ accessor in try accessor.insert(Item(itemType: "Note", id: "a")) }, completion: { _ in
                let read = try? store.read { accessor in try accessor.countItems(forRequest: DataStoreRequest(itemType: "Note")) }
                let written = (try? store.writeSync { accessor in try accessor.insert(Item(itemType: "Note", id: "b")) }) != nil
                outcome.withLock { $0 = (read, written, nil, nil) }
                do { try store.flush() } catch let error as DataStoreError { outcome.withLock { $0.flush = error.code } } catch {}
                do { try store.tearDown() } catch let error as DataStoreError { outcome.withLock { $0.tearDown = error.code } } catch {}
            })
            try store.flush()
            let seen = outcome.value
            #expect(seen.read == 1 && seen.written)
            #expect(seen.flush == .misuse && seen.tearDown == .misuse)
            #expect(try allItems(store, "Note").count == 2)
        },
        ConformanceTest("flush() waits for queued writes and their completions", group: .blocks) { context in
            let store = try context.makeStore()
            let completions = Locked(0)
            for index in 0..<50 {
                store.writeAsync({ accessor in
                    try accessor.insert(Item(itemType: "Note", id: .int(Int64(index))))
                }, completion: { _ in completions.withLock { $0 += 1 } })
            }
            try store.flush()
            #expect(completions.withLock { $0 } == 50)
            #expect(try allItems(store, "Note").count == 50)
        },
        ConformanceTest("async read and write variants work from Swift concurrency", group: .blocks) { context in
            let store = try context.makeStore()
            let id = try await store.write { accessor in
                let item = try accessor.createItem(ofType: "Note")
                item["text"] = "async"
                return item.id
            }
            let text = try await store.read { accessor in try accessor.item(ofType: "Note", id: id)?["text"] }
            #expect(text == "async")
            await expectError(.alreadyExists) {
                try await store.write { accessor in try accessor.createItem(ofType: "Note", id: id).id }
            }
            let rolledBack = try await store.write { accessor -> TransactionStatus in
                try accessor.insert(Item(itemType: "Note", id: "discarded"))
                return .rollback
            }
            #expect(rolledBack == .rollback)
            #expect(try await store.read { accessor throws in
                try accessor.countItems(forRequest: DataStoreRequest(itemType: "Note"))
            } == 1)
        },
    ]
}
