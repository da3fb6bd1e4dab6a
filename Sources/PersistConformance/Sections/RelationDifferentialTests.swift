import Foundation
import Persist
import Testing

/// Random write blocks over random relations, checked against ``ReferenceRelations``.
public enum RelationDifferentialTests {
    /// How many random write blocks one run checks.
    public static let blockCount = 150

    /// After how many blocks the reads that follow relations are checked again.
    static let readEvery = 10

    static let all: [ConformanceTest] = [
        ConformanceTest("150 random write blocks over random relations give exactly the reference model's items",
                        group: .differential) { context in
            let store = try context.makeStore()
            try run(on: store, seed: DifferentialTests.seed, blocks: blockCount,
                    compositeAlbums: context.factory.capabilities.contains(.compositeIdentifiers))
        },
        // Two cases the differential test found on SQLite and PostgreSQL, kept apart.
        ConformanceTest("a cascade the engine carries out still applies the rules of the relations to the items it deletes",
                        group: .relations, requires: .compositeIdentifiers) { context in
            let store = try context.makeStore()
            // Album → Person is a foreign key on SQL stores; the composite relations to Album may not be.
            try store.writeSync { accessor in
                try accessor.ensureRelation(ofType: "Album", on: ["ownerId"], to: "Person", onDelete: .cascade)
                try accessor.ensureRelation(ofType: "Track", on: ["albumLabel", "albumNo"], to: "Album", onDelete: .deny)
                try accessor.ensureRelation(ofType: "Sticker", on: ["albumLabel", "albumNo"], to: "Album", onDelete: .cascade)
                try accessor.ensureRelation(ofType: "Tag", on: ["albumLabel", "albumNo"], to: "Album", onDelete: .nullify)
            }
            let onAlbum: [String: Value] = ["albumLabel": "x", "albumNo": 1, "rank": 1]
            try seed(store, [Item(itemType: "Person", id: 1), Item(itemType: "Album", id: .composite(["x", 1]), attributes: ["ownerId": 1]),
                             Item(itemType: "Track", id: "t1", attributes: onAlbum), Item(itemType: "Sticker", id: 1, attributes: onAlbum),
                             Item(itemType: "Tag", id: 1, attributes: onAlbum)])
            let error = expectError(.referenceViolation) {
                try store.writeSync { accessor in try accessor.deleteItem(ofType: "Person", id: 1) }
            }
            #expect(error?.items.contains(ItemReference(itemType: "Track", id: "t1")) == true)
            #expect(try allItems(store, "Album").count == 1)
            try store.writeSync { accessor in
                try accessor.deleteItem(ofType: "Person", id: 1)
                try accessor.deleteItem(ofType: "Track", id: "t1")
            }
            #expect(try allItems(store, "Album").isEmpty)
            #expect(try allItems(store, "Sticker").isEmpty)
            #expect(try allItems(store, "Tag") == [Item(itemType: "Tag", id: 1, attributes: ["rank": 1])])
        },
        ConformanceTest("a delete through a cascading relation of a type to itself counts every item it selected",
                        group: .relations) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor in
                try accessor.ensureRelation(ofType: "Employee", on: ["reportsTo"], to: "Employee", onDelete: .cascade)
            }
            let employees = [Item(itemType: "Employee", id: 1), Item(itemType: "Employee", id: 2, attributes: ["reportsTo": 1]),
                             Item(itemType: "Employee", id: 3, attributes: ["reportsTo": 2])]
            try seed(store, employees)
            #expect(try store.writeSync { accessor in try accessor.deleteAllItems(ofType: "Employee") } == 3)
            try seed(store, employees)
            #expect(try store.writeSync { accessor in try accessor.deleteItems(forRequest: DataStoreRequest(itemType: "Employee")) } == 3)
            #expect(try allItems(store, "Employee").isEmpty)
        },
    ]

    /// Declares random relations in `store`, stores items whose references hold, then runs
    /// `blocks` random write blocks: each must commit with exactly the reference model's items
    /// (cascades and nullifications applied) or fail with `referenceViolation`, naming an item
    /// whose reference is broken, and keep what the store held. Every few blocks, the reads that
    /// follow relations are checked against the model too.
    ///
    /// ```swift
    /// try RelationDifferentialTests.run(on: store, seed: 7, blocks: 50)
    /// ```
    public static func run(on store: any DataStore, seed: UInt64, blocks: Int, compositeAlbums: Bool = true) throws {
        var writes = RandomRelationWrites(seed: seed &+ 45, compositeAlbums: compositeAlbums)
        let declared = writes
        let relations = try store.writeSync { accessor in try declared.declare(in: accessor) }
        var model = ReferenceRelations(relations: relations)
        var run = Run(seed: seed)
        run.check(try stored(store), against: model, "the store is not empty after declaring its relations")
        var commits = 0
        var violations = 0
        for number in 0..<blocks {
            let block = writes.needsTopUp(model) ? writes.topUp(model) : writes.block(over: model)
            if try runBlock(block, number, on: store, model: &model, run: &run) { commits += 1 } else { violations += 1 }
            if number % readEvery == readEvery - 1 || number == blocks - 1 {
                try checkReads(store, model, &writes, after: number, run: &run)
            }
        }
        #expect(run.mismatches == 0, "\(run.mismatches) of \(blocks) blocks differ from the reference model (seed \(seed))")
        // A run that never commits, or never fails, checks only half of the contract.
        #expect(commits > blocks / 10 && violations > blocks / 10,
                "\(commits) blocks committed, \(violations) failed (seed \(seed)): the random writes need rebalancing")
    }

    /// The mismatches of one run: counted, the first few recorded in detail.
    struct Run {
        let seed: UInt64
        var mismatches = 0

        mutating func record(_ message: String) {
            mismatches += 1
            guard mismatches <= 5 else { return }
            Issue.record("(seed \(seed)) \(message)")
        }

        /// Records a mismatch unless `items` are exactly the model's; returns whether they are.
        @discardableResult
        mutating func check(_ items: [String: [Item]], against model: ReferenceRelations, _ what: @autoclosure () -> String) -> Bool {
            var differences: [String] = []
            for itemType in RandomRelationWrites.itemTypes {
                let expected = model.items(ofType: itemType)
                let actual = items[itemType] ?? []
                if actual != expected {
                    let extra = actual.filter { !expected.contains($0) }
                    let missing = expected.filter { !actual.contains($0) }
                    differences.append("\(itemType): the store also holds \(extra), lacks \(missing)")
                }
            }
            guard !differences.isEmpty else { return true }
            record("\(what())\n  " + differences.joined(separator: "\n  "))
            return false
        }
    }

    /// Every item of the test's types, by type, in one read block.
    static func stored(_ store: any DataStore) throws -> [String: [Item]] {
        try store.read { (accessor: DataStoreReadAccessor) throws in
            var items: [String: [Item]] = [:]
            for itemType in RandomRelationWrites.itemTypes {
                items[itemType] = try accessor.items(forRequest: DataStoreRequest(itemType: itemType))
            }
            return items
        }
    }

    /// Runs one block and checks it against the model, which it then follows (or, after a
    /// mismatch, takes the store's items, so that one difference is reported once). Returns
    /// whether the block committed.
    static func runBlock(_ block: [RandomRelationWrites.Write], _ number: Int, on store: any DataStore,
                         model: inout ReferenceRelations, run: inout Run) throws -> Bool {
        var expected = model
        let expectedResults = block.map { $0.apply(to: &expected) }
        let broken = expected.brokenReferrers()
        let shown = "block #\(number):\n    " + block.map(\.description).joined(separator: "\n    ")
        var committed = false
        do {
            let results = try store.writeSync { accessor in try block.map { try $0.apply(to: accessor) } }
            committed = true
            if !broken.isEmpty {
                run.record("\(shown)\n  committed, but the reference model leaves broken references from \(broken.sorted(by: precedes))")
            } else if results != expectedResults {
                run.record("\(shown)\n  returned \(results), not \(expectedResults)")
            }
        } catch let error as DataStoreError where error.code == .referenceViolation {
            if broken.isEmpty {
                run.record("\(shown)\n  failed with \(error), but the reference model commits it")
            } else if !error.items.contains(where: broken.contains) {
                run.record("\(shown)\n  failed naming \(error.items), none of which is broken; broken: \(broken.sorted(by: precedes))")
            }
        } catch {
            run.record("\(shown)\n  failed with \(error), not referenceViolation")
        }
        let after = committed ? expected : model
        let items = try stored(store)
        if run.check(items, against: after, "\(shown)\n  \(committed ? "committed" : "failed"), and the items differ afterwards") {
            model = after
        } else {
            model = ReferenceRelations(relations: model.relations, items: items.values.flatMap { $0 })
        }
        return committed
    }

    static func precedes(_ lhs: ItemReference, _ rhs: ItemReference) -> Bool {
        lhs.itemType != rhs.itemType ? lhs.itemType < rhs.itemType : ReferenceEvaluator.idPrecedes(lhs.id, rhs.id)
    }
}
