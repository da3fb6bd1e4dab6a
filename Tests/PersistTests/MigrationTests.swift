import Foundation
import PersistConformance
import Testing

@testable import Persist

/// An engine that behaves like the in-memory one but can drop an attribute on save, or fail while
/// streaming, to test what migration does when a store misbehaves.
final class FaultyEngine: DataStoreEngine {
    enum Fault: Sendable {
        case none, dropAttribute(String), failStreamingAfter(Int), failClose
        /// Cancels the migration as soon as the store is streamed (a target: while it is verified).
        case cancelWhenStreamed(MigrationCancellation)
    }
    let location = ":faulty:"
    private let inner = InMemoryEngine()
    let fault: Fault

    init(fault: Fault) { self.fault = fault }
    func open() throws {}
    func close() throws {
        if case .failClose = fault { throw DataStoreError(.io, "the disk went away while closing", path: location) }
    }
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        try inner.read { reader in try body(FaultyTransaction(inner: reader, fault: fault)) }
    }
    func write<T>(_ body: (any StoreWriter) throws -> (value: T, commit: Bool)) throws -> T {
        try inner.write { writer in
            guard let writer = writer as? InMemoryTransaction else { throw DataStoreError(.misuse, "unexpected writer") }
            return try body(FaultyTransaction(inner: writer, fault: fault))
        }
    }
}

final class FaultyTransaction: StoreWriter {
    let inner: any StoreReader
    let fault: FaultyEngine.Fault
    init(inner: any StoreReader, fault: FaultyEngine.Fault) {
        self.inner = inner
        self.fault = fault
    }
    private var writer: (any StoreWriter)? { inner as? any StoreWriter }
    func item(ofType itemType: String, id: ItemID) throws -> Item? { try inner.item(ofType: itemType, id: id) }
    func forEachItem(matching request: DataStoreRequest, _ body: (Item) throws -> Bool) throws {
        var seen = 0
        if case .cancelWhenStreamed(let cancellation) = fault { cancellation.cancel() }
        try inner.forEachItem(matching: request) { item in
            if case .failStreamingAfter(let limit) = fault, seen >= limit {
                throw DataStoreError(.corrupt, "record \(item.reference) cannot be decoded", path: location, items: [item.reference])
            }
            seen += 1
            return try body(item)
        }
    }
    private var location: String { ":faulty:" }
    func countItems(matching request: DataStoreRequest) throws -> Int { try inner.countItems(matching: request) }
    func itemTypes() throws -> [String] { try inner.itemTypes() }
    private func damaged(_ item: Item) -> Item {
        guard case .dropAttribute(let name) = fault else { return item }
        var copy = item
        copy[name] = nil
        return copy
    }
    func insert(_ item: Item) throws { try writer?.insert(damaged(item)) }
    func save(_ item: Item) throws { try writer?.save(damaged(item)) }
    func deleteItem(ofType itemType: String, id: ItemID) throws -> Bool { try writer?.deleteItem(ofType: itemType, id: id) ?? false }
    func deleteAllItems(ofType itemType: String) throws -> Int { try writer?.deleteAllItems(ofType: itemType) ?? 0 }
}

final class FaultyStore: EngineBackedDataStore {
    let scheduler: WriteScheduler
    init(_ fault: FaultyEngine.Fault) {
        scheduler = WriteScheduler(engine: FaultyEngine(fault: fault), logger: .init(label: "faulty"))
    }
}

@Suite("Migration")
struct MigrationTests {
    static func sample() -> [Item] {
        (0..<250).map { Item(itemType: "Restaurant", id: .int(Int64($0)), attributes: ["name": .string("R\($0)"), "rating": .int(Int64($0 % 5))]) }
            + (0..<40).map { Item(itemType: "Review", id: .string("v\($0)"), attributes: ["stars": .double(Double($0) / 8)]) }
    }

    static func open(_ store: any DataStore, holding items: [Item] = []) throws -> any DataStore {
        try store.setup()
        try store.writeSync { accessor in for item in items { try accessor.insert(item) } }
        return store
    }

    static func everything(_ store: any DataStore) throws -> Set<Item> {
        try store.read { accessor in
            Set(try accessor.itemTypes().flatMap { try accessor.items(forRequest: DataStoreRequest(itemType: $0)) })
        }
    }

    @Test("copies every type in batches and verifies the result")
    func copiesEverything() throws {
        let source = try Self.open(InMemoryDataStore(), holding: Self.sample())
        let target = try Self.open(InMemoryDataStore())
        var options = MigrationOptions()
        options.batchSize = 64
        var phases: [MigrationProgress.Phase] = []
        var last: MigrationProgress?
        let report = try Migration(source: source, target: target, options: options).run { progress in
            if phases.last != progress.phase { phases.append(progress.phase) }
            last = progress
        }
        #expect(try Self.everything(target) == Set(Self.sample()))
        #expect(report.read == 290 && report.written == 290 && report.skipped == 0 && report.verified)
        #expect(report.types.map(\.itemType) == ["Restaurant", "Review"])
        #expect(report.types.map(\.sourceChecksum.count) == [250, 40])
        #expect(phases.first == .copying && phases.last == .finished && phases.contains(.verifying))
        #expect(last?.expectedItems == 290)
        // The finished report sums up the run.
        #expect(last?.phase == .finished && last?.items == 290 && (last?.elapsed ?? 0) > 0, "\(String(describing: last))")
    }

    @Test("copies only the chosen types")
    func chosenTypes() throws {
        let source = try Self.open(InMemoryDataStore(), holding: Self.sample())
        let target = try Self.open(InMemoryDataStore())
        let report = try Migration(source: source, target: target, options: MigrationOptions(itemTypes: ["Review", "Missing"])).run()
        #expect(try target.read { try $0.itemTypes() } == ["Review"])
        #expect(report.types.map(\.read) == [40, 0])
    }

    @Test("ifExists .fail stops before writing anything")
    func failsWhenPresent() throws {
        let source = try Self.open(InMemoryDataStore(), holding: Self.sample())
        let existing = [Item(itemType: "Review", id: "v7", attributes: ["stars": 5.0])]
        let target = try Self.open(InMemoryDataStore(), holding: existing)
        do {
            _ = try Migration(source: source, target: target).run()
            Issue.record("expected alreadyExists")
        } catch let error as DataStoreError {
            #expect(error.code == .alreadyExists)
            #expect(error.items == [ItemReference(itemType: "Review", id: "v7")])
        }
        #expect(try Self.everything(target) == Set(existing))
    }

    @Test("ifExists .replace overwrites and .skip keeps the target's items, both verified")
    func replaceAndSkip() throws {
        let source = try Self.open(InMemoryDataStore(), holding: Self.sample())
        let kept = Item(itemType: "Review", id: "v7", attributes: ["stars": 5.0])
        let skipTarget = try Self.open(InMemoryDataStore(), holding: [kept])
        let skipped = try Migration(source: source, target: skipTarget, options: MigrationOptions(ifExists: .skip, batchSize: 7)).run()
        #expect(skipped.skipped == 1 && skipped.written == 289 && skipped.verified)
        #expect(try skipTarget.read { try $0.item(ofType: "Review", id: "v7") } == kept)

        let replaceTarget = try Self.open(InMemoryDataStore(), holding: [kept])
        let replaced = try Migration(source: source, target: replaceTarget, options: MigrationOptions(ifExists: .replace)).run()
        #expect(replaced.written == 290 && replaced.verified)
        #expect(try Self.everything(replaceTarget) == Set(Self.sample()))
    }

    @Test("a dry run does what the real run would, reports it, and keeps nothing")
    func dryRun() throws {
        let source = try Self.open(InMemoryDataStore(), holding: Self.sample())
        let existing = Item(itemType: "Review", id: "v1")
        let target = try Self.open(InMemoryDataStore(), holding: [existing])
        let skipping = try Migration(source: source, target: target, options: MigrationOptions(ifExists: .skip, dryRun: true)).run()
        #expect(skipping.dryRun && skipping.read == 290 && skipping.skipped == 1 && skipping.written == 289 && !skipping.verified)
        #expect(try Self.everything(target) == [existing])
        let atomic = try Migration(source: source, target: target,
                                   options: MigrationOptions(ifExists: .replace, dryRun: true, atomic: true)).run()
        #expect(atomic.written == 290 && atomic.skipped == 0)
        #expect(try Self.everything(target) == [existing])
        // With .fail, a dry run stops where the real run would.
        let error = expectError(.alreadyExists) {
            try Migration(source: source, target: target, options: MigrationOptions(dryRun: true)).run()
        }
        #expect(error?.items == [existing.reference])
        #expect(try Self.everything(target) == [existing])
    }

    @Test("verification finds a target that does not hold what was written")
    func verificationMismatch() throws {
        let source = try Self.open(InMemoryDataStore(), holding: Self.sample())
        let target = try Self.open(FaultyStore(.dropAttribute("rating")))
        do {
            _ = try Migration(source: source, target: target).run()
            Issue.record("expected a verification failure")
        } catch let error as DataStoreError {
            #expect(error.code == .corrupt && error.message.contains("Restaurant"))
        }
    }

    @Test("an undecodable source item stops the run with its key")
    func undecodableSource() throws {
        let source = try Self.open(FaultyStore(.failStreamingAfter(10)), holding: Self.sample())
        let target = try Self.open(InMemoryDataStore())
        do {
            _ = try Migration(source: source, target: target, options: MigrationOptions(batchSize: 1_000)).run()
            Issue.record("expected corrupt")
        } catch let error as DataStoreError {
            #expect(error.code == .corrupt && error.items.count == 1)
        }
        #expect(try Self.everything(target).isEmpty)
    }

    @Test("a target that fails at once stops the reader, however far it got, and the error comes back")
    func writerFailsFirst() throws {
        let many = (0..<5_000).map { Item(itemType: "Note", id: .int(Int64($0)), attributes: ["n": .int(Int64($0))]) }
        let source = try Self.open(InMemoryDataStore(), holding: many)
        let target = try Self.open(InMemoryDataStore(), holding: [Item(itemType: "Note", id: 0)])
        for batchSize in [1, 5_000] {
            let error = expectError(.alreadyExists) {
                try Migration(source: source, target: target, options: MigrationOptions(ifExists: .fail, batchSize: batchSize,
                                                                                        atomic: batchSize > 1)).run()
            }
            #expect(error != nil)
        }
        #expect(try Self.everything(target).count == 1)
    }

    @Test("a cancelled run throws CancellationError and an atomic copy leaves nothing")
    func cancellation() throws {
        let source = try Self.open(InMemoryDataStore(), holding: Self.sample())
        let target = try Self.open(InMemoryDataStore())
        let cancellation = MigrationCancellation()
        cancellation.cancel()
        #expect(cancellation.isCancelled)
        #expect(throws: CancellationError.self) {
            try Migration(source: source, target: target, options: MigrationOptions(atomic: true)).run(cancellation: cancellation)
        }
        #expect(try Self.everything(target).isEmpty)
        // Cancelled part-way, from the progress callback.
        let midway = MigrationCancellation()
        #expect(throws: CancellationError.self) {
            try Migration(source: source, target: target, options: MigrationOptions(batchSize: 10, atomic: true))
                .run(progress: { progress in if progress.items > 0 { midway.cancel() } }, cancellation: midway)
        }
        #expect(try Self.everything(target).isEmpty)
    }

    @Test("a cancel that comes while an atomic copy is verified rolls the whole copy back, in every type's size",
          arguments: [1, 40, 1_000])
    func cancelledWhileVerifying(count: Int) throws {
        let items = (0..<count).map { Item(itemType: "Note", id: .int(Int64($0)), attributes: ["n": .int(Int64($0))]) }
        let source = try Self.open(InMemoryDataStore(), holding: items)
        let cancellation = MigrationCancellation()
        let target = try Self.open(FaultyStore(.cancelWhenStreamed(cancellation)))
        #expect(throws: CancellationError.self) {
            try Migration(source: source, target: target, options: MigrationOptions(atomic: true)).run(cancellation: cancellation)
        }
        #expect(try Self.everything(target).isEmpty)
    }

    @Test("the report counts bytes and seconds per type, and the verification's own seconds")
    func reportFigures() throws {
        let source = try Self.open(InMemoryDataStore(), holding: [
            Item(itemType: "Note", id: "ab", attributes: ["text": "héllo", "count": 3, "flag": true, "data": .bytes([1, 2])]),
        ])
        let target = try Self.open(InMemoryDataStore())
        let report = try Migration(source: source, target: target).run()
        // id 2 + text 6 (UTF-8) + count 8 + flag 1 + data 2
        #expect(report.bytes == 19 && report.types.first?.bytes == 19)
        #expect(report.verified && report.types.allSatisfy { $0.seconds >= 0 && $0.verificationSeconds >= 0 })
        let unverified = try Migration(source: source, target: try Self.open(InMemoryDataStore()),
                                       options: MigrationOptions(verify: false)).run()
        #expect(!unverified.verified && unverified.verificationSeconds == 0)
    }

    @Test("a copy of an empty store is verified, unless verification is off or it is a dry run")
    func emptyCopyVerified() throws {
        let source = try Self.open(InMemoryDataStore())
        let copied = try Migration(source: source, target: try Self.open(InMemoryDataStore())).run()
        #expect(copied.types.isEmpty && copied.written == 0 && copied.verified)
        let unverified = try Migration(source: source, target: try Self.open(InMemoryDataStore()),
                                       options: MigrationOptions(verify: false)).run()
        #expect(!unverified.verified)
        let dry = try Migration(source: source, target: try Self.open(InMemoryDataStore()),
                                options: MigrationOptions(dryRun: true)).run()
        #expect(!dry.verified)
    }

    @Test("a store and a child of it cannot be each other's source and target")
    func childAndParent() throws {
        let parent = try Self.open(InMemoryDataStore(), holding: Self.sample())
        let child = try parent.makeChildDataStore()
        try child.setup()
        expectError(.invalidArgument) { try Migration(source: child, target: parent).run() }
        expectError(.invalidArgument) { try Migration(source: parent, target: child).run() }
    }

    @Test("bad options and the same store on both sides are rejected")
    func badOptions() throws {
        let store = try Self.open(InMemoryDataStore())
        #expect(throws: DataStoreError.self) { try Migration(source: store, target: store).run() }
        let other = try Self.open(InMemoryDataStore())
        #expect(throws: DataStoreError.self) { try Migration(source: store, target: other, options: MigrationOptions(batchSize: 0)).run() }
        #expect(throws: DataStoreError.self) { try Migration(source: store, target: other, options: MigrationOptions(itemTypes: [""])).run() }
    }

    @Test("checksums do not depend on order and see every difference")
    func checksums() {
        let items = Self.sample()
        var forward = ItemChecksum()
        var backward = ItemChecksum()
        items.forEach { forward.add($0) }
        items.reversed().forEach { backward.add($0) }
        #expect(forward == backward && forward.count == 290)
        var changed = ItemChecksum()
        for item in items {
            var copy = item
            if item.id == .int(3) { copy["rating"] = .double(3) }
            changed.add(copy)
        }
        #expect(changed != forward)
        #expect(forward.hex.count == 32)
    }
}

@Suite("Migration in one write block")
struct AtomicMigrationTests {
    @Test("an atomic copy that fails part-way leaves the target untouched")
    func atomicFailure() throws {
        let source = try MigrationTests.open(FaultyStore(.failStreamingAfter(100)), holding: MigrationTests.sample())
        let target = try MigrationTests.open(InMemoryDataStore(), holding: [Item(itemType: "Other", id: 1)])
        #expect(throws: DataStoreError.self) {
            try Migration(source: source, target: target, options: MigrationOptions(batchSize: 10, atomic: true)).run()
        }
        #expect(try MigrationTests.everything(target) == [Item(itemType: "Other", id: 1)])
    }

    @Test("an atomic copy that succeeds is complete and verified")
    func atomicSuccess() throws {
        let source = try MigrationTests.open(InMemoryDataStore(), holding: MigrationTests.sample())
        let target = try MigrationTests.open(InMemoryDataStore())
        let report = try Migration(source: source, target: target, options: MigrationOptions(batchSize: 10, atomic: true)).run()
        #expect(report.verified && report.written == 290)
        #expect(try MigrationTests.everything(target) == Set(MigrationTests.sample()))
    }

    @Test("beforeCommit runs once after every item is written; its error rolls an atomic copy back and ends the run")
    func beforeCommitRollsBack() throws {
        let source = try MigrationTests.open(InMemoryDataStore(), holding: MigrationTests.sample())
        let target = try MigrationTests.open(InMemoryDataStore(), holding: [Item(itemType: "Other", id: 1)])
        let calls = Locked(0)
        var options = MigrationOptions(batchSize: 10, atomic: true)
        options.beforeCommit = {
            calls.withLock { $0 += 1 }
            throw DataStoreError(.locked, "the source changed")
        }
        let error = expectError(.locked) { try Migration(source: source, target: target, options: options).run() }
        #expect(error?.message == "the source changed")
        #expect(calls.value == 1)
        #expect(try MigrationTests.everything(target) == [Item(itemType: "Other", id: 1)])
        // Verification comes first: when it fails, the hook is not reached.
        let faulty = try MigrationTests.open(FaultyStore(.dropAttribute("stars")))
        #expect(throws: DataStoreError.self) { try Migration(source: source, target: faulty, options: options).run() }
        #expect(calls.value == 1)
    }

    @Test("beforeCommit runs after the last batch of a batched copy, before verification")
    func beforeCommitBatched() throws {
        let source = try MigrationTests.open(InMemoryDataStore(), holding: MigrationTests.sample())
        let target = try MigrationTests.open(InMemoryDataStore())
        let calls = Locked(0)
        var options = MigrationOptions(batchSize: 10)
        options.beforeCommit = {
            let written = try MigrationTests.everything(target).count
            #expect(written == 290)
            calls.withLock { $0 += 1 }
        }
        let report = try Migration(source: source, target: target, options: options).run()
        #expect(report.verified && calls.value == 1)
    }
}

@Suite("Atomic migration verification")
struct AtomicVerificationTests {
    @Test("a verification failure in an atomic copy rolls the whole copy back")
    func rollsBack() throws {
        let source = try MigrationTests.open(InMemoryDataStore(), holding: MigrationTests.sample())
        let target = try MigrationTests.open(FaultyStore(.dropAttribute("stars")))
        #expect(throws: DataStoreError.self) {
            try Migration(source: source, target: target, options: MigrationOptions(atomic: true)).run()
        }
        #expect(try MigrationTests.everything(target).isEmpty)
    }
}
