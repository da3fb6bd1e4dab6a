import Dispatch
import Foundation
import Persist
import Testing

/// Isolation and serialization under concurrent use.
enum ConcurrencyTests {
    /// Accounts whose balances always sum to `total`: every write moves money between two of them.
    static func seedAccounts(_ store: any DataStore, count: Int, total: Int64) throws {
        try seed(store, (0..<count).map { index in
            Item(itemType: "Account", id: .int(Int64(index)),
                 attributes: ["balance": .int(index == 0 ? total : 0), "moves": 0])
        })
    }

    static func transfer(_ store: any DataStore, from: Int, to: Int, amount: Int64) throws {
        try store.writeSync { accessor throws in
            let source = try accessor.mutableVersion(ofItem: Item(itemType: "Account", id: .int(Int64(from))))
            let target = try accessor.mutableVersion(ofItem: Item(itemType: "Account", id: .int(Int64(to))))
            guard let source, let target else { throw DataStoreError(.notFound, "account missing") }
            source["balance"] = .int((source["balance"]?.intValue ?? 0) - amount)
            target["balance"] = .int((target["balance"]?.intValue ?? 0) + amount)
            source["moves"] = .int((source["moves"]?.intValue ?? 0) + 1)
        }
    }

    static func balanceSum(_ accessor: DataStoreReadAccessor) throws -> Int64 {
        try accessor.items(forRequest: DataStoreRequest(itemType: "Account")).reduce(0) {
            $0 + ($1["balance"]?.intValue ?? 0)
        }
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("several read blocks run at the same time", group: .concurrency) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Note", id: "n")])
            let inside = Locked(0)
            let maximum = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                _ = try? store.read { accessor throws in
                    let now = inside.withLock { value -> Int in
                        value += 1
                        return value
                    }
                    maximum.withLock { $0 = max($0, now) }
                    let deadline = Date().addingTimeInterval(2)
                    while inside.withLock({ $0 }) < 2 && Date() < deadline { usleep(1000) }
                    _ = try accessor.countItems(forRequest: DataStoreRequest(itemType: "Note"))
                    inside.withLock { $0 -= 1 }
                }
            }
            #expect(maximum.withLock { $0 } >= 2)
        },
        ConformanceTest("concurrent writeSync calls are serialized: no update is lost", group: .concurrency) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Counter", id: "c", attributes: ["n": 0])])
            let failures = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                for _ in 0..<25 {
                    do {
                        try store.writeSync { accessor throws in
                            let counter = try accessor.mutableVersion(ofItem: Item(itemType: "Counter", id: "c"))
                            counter?["n"] = .int((counter?["n"]?.intValue ?? 0) + 1)
                        }
                    } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
            }
            #expect(failures.withLock { $0 } == 0)
            #expect(try allItems(store, "Counter").first?["n"] == 200)
        },
        ConformanceTest("every read sees whole write blocks only (invariant under concurrent writes)",
                        group: .concurrency) { context in
            let store = try context.makeStore()
            try seedAccounts(store, count: 8, total: 1000)
            let stop = Locked(false)
            let violations = Locked<[Int64]>([])
            let reads = Locked(0)
            let group = DispatchGroup()
            for reader in 0..<3 {
                DispatchQueue.global().async(group: group) {
                    while !stop.value {
                        do {
                            let sum = try store.read { accessor in try balanceSum(accessor) }
                            if sum != 1000 { violations.withLock { $0.append(sum) } }
                            reads.withLock { $0 += 1 }
                        } catch {
                            violations.withLock { $0.append(Int64(-1 - reader)) }
                        }
                    }
                }
            }
            let deadline = Date().addingTimeInterval(20)
            var step = 0
            while (step < 150 || reads.value < 100) && Date() < deadline {
                try transfer(store, from: step % 8, to: (step * 3 + 1) % 8, amount: Int64(step % 7 + 1))
                step += 1
            }
            stop.withLock { $0 = true }
            group.wait()
            #expect(violations.withLock { $0 }.isEmpty)
            #expect(reads.value > 0)
            #expect(try store.read { try balanceSum($0) } == 1000)
        },
        ConformanceTest("a read block sees the same state throughout while writes commit", group: .concurrency) { context in
            let store = try context.makeStore()
            try seedAccounts(store, count: 4, total: 100)
            let writerDone = DispatchSemaphore(value: 0)
            let (first, second) = try store.read { accessor -> ([Item], [Item]) in
                let request = DataStoreRequest(itemType: "Account")
                let first = try accessor.items(forRequest: request)
                DispatchQueue.global().async {
                    for step in 0..<5 { try? transfer(store, from: step % 4, to: (step + 1) % 4, amount: 1) }
                    try? store.writeSync { accessor in try accessor.insert(Item(itemType: "Account", id: 99)) }
                    writerDone.signal()
                }
                usleep(100_000)
                return (first, try accessor.items(forRequest: request))
            }
            #expect(first == second)
            writerDone.wait()
            #expect(try allItems(store, "Account").count == 5)
        },
        ConformanceTest("a read block does not stop a write from committing", group: .concurrency,
                        requires: .readsDoNotBlockWrites) { context in
            let store = try context.makeStore()
            try seed(store, [Item(itemType: "Note", id: "before")])
            try store.read { accessor throws in
                let committed = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    try? store.writeSync { accessor in try accessor.insert(Item(itemType: "Note", id: "after")) }
                    committed.signal()
                }
                #expect(committed.wait(timeout: .now() + 10) == .success, "the write waited for the read")
                let ids = try accessor.items(forRequest: DataStoreRequest(itemType: "Note")).map(\.id)
                #expect(ids == ["before"])
            }
            #expect(try allItems(store, "Note").map(\.id) == ["after", "before"])
        },
        ConformanceTest("16 tasks mixing reads, writeSync, writeAsync, async writes and child merges keep every invariant",
                        group: .concurrency) { context in
            let store = try context.makeStore()
            try seedAccounts(store, count: 6, total: 600)
            let violations = Locked<[String]>([])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<16 {
                    group.addTask {
                        for step in 0..<20 {
                            let from = (task + step) % 6
                            let to = (task * 5 + step + 1) % 6
                            switch (task + step) % 5 {
                            case 0:
                                let sum = try await store.read { try balanceSum($0) }
                                if sum != 600 { violations.withLock { $0.append("async read saw \(sum)") } }
                            case 1:
                                try transfer(store, from: from, to: to, amount: 2)
                            case 2:
                                store.writeAsync({ accessor in
                                    let source = try accessor.mutableVersion(ofItem: Item(itemType: "Account", id: .int(Int64(from))))
                                    let target = try accessor.mutableVersion(ofItem: Item(itemType: "Account", id: .int(Int64(to))))
                                    source?["balance"] = .int((source?["balance"]?.intValue ?? 0) - 1)
                                    target?["balance"] = .int((target?["balance"]?.intValue ?? 0) + 1)
                                }, completion: nil)
                            case 3:
                                try await store.write { accessor in
                                    let sum = try balanceSum(accessor)
                                    if sum != 600 { violations.withLock { $0.append("write saw \(sum)") } }
                                }
                            default:
                                // A transfer in a child, merged optimistically: retried on conflict.
                                var merged = false
                                for _ in 0..<50 where !merged {
                                    let child = try store.makeChildDataStore()
                                    try child.setup()
                                    try transfer(child, from: from, to: to, amount: 3)
                                    do {
                                        try store.merge(child, policy: .fail)
                                        merged = true
                                    } catch let error as DataStoreError where error.code == .conflict {
                                        continue
                                    }
                                }
                                if !merged { violations.withLock { $0.append("a child merge kept conflicting") } }
                            }
                            let sum = try await store.read { try balanceSum($0) }
                            if sum != 600 { violations.withLock { $0.append("read saw \(sum)") } }
                        }
                    }
                }
                try await group.waitForAll()
            }
            try store.flush()
            #expect(violations.withLock { $0 }.isEmpty)
            #expect(try await store.read { try balanceSum($0) } == 600)
        },
    ]
}
