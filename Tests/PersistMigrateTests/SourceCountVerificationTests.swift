import Foundation
import Persist
import Testing

/// Verification counts the source's items of every type it copies apart from reading them, so a
/// copy that misses rows fails, naming the type and the counts, rather than verify what it wrote.
@Suite("verification compares the source's count of every copied type with what was read and what the target holds")
struct SourceCountVerificationTests {
    static let items = (1...3).map { Item(itemType: "Note", id: .int(Int64($0)), attributes: ["n": .int(Int64($0))]) }
        + [Item(itemType: "Tag", id: "a", attributes: [:])]
    static let hidden: Set<ItemReference> = [ItemReference(itemType: "Note", id: 2)]

    private static func stores(hiding hidden: Set<ItemReference> = hidden) throws -> (LeakyStore, InMemoryDataStore) {
        let source = LeakyStore(items: items, hidden: hidden)
        let target = InMemoryDataStore()
        try source.setup()
        try target.setup()
        return (source, target)
    }

    @Test("a type the copy read fewer items of than the source holds fails verification, naming both counts")
    func missedRowsFail() throws {
        let (source, target) = try Self.stores()
        defer { try? source.tearDown(); try? target.tearDown() }
        var options = MigrationOptions()
        options.atomic = true
        let error = #expect(throws: DataStoreError.self) {
            try Migration(source: source, target: target, options: options).run()
        }
        #expect(error?.code == .corrupt)
        let message = error?.description ?? ""
        #expect(message.contains("verification failed for Note: the source holds 3 item(s) of it, but 2 were read"),
                "\(message)")
        #expect(message.contains("holds 2"), "\(message)")
        // One block: the failed verification rolled the whole copy back.
        #expect(try target.read { try $0.itemTypes() } == [])
    }

    @Test("--types style selection and batches: the missed type fails, a complete one passes")
    func chosenTypes() throws {
        let (source, target) = try Self.stores()
        defer { try? source.tearDown(); try? target.tearDown() }
        var options = MigrationOptions(itemTypes: ["Tag"])
        options.batchSize = 1
        let report = try Migration(source: source, target: target, options: options).run()
        #expect(report.verified)
        options.itemTypes = ["Note"]
        #expect(throws: DataStoreError.self) { try Migration(source: source, target: target, options: options).run() }
    }

    @Test("with a transform, which may give an item any type, the totals are compared")
    func totalsWithTransform() throws {
        let (source, target) = try Self.stores()
        defer { try? source.tearDown(); try? target.tearDown() }
        var options = MigrationOptions()
        options.transform = { item in item }
        let error = #expect(throws: DataStoreError.self) {
            try Migration(source: source, target: target, options: options).run()
        }
        #expect(error?.description.contains("the source holds 4 item(s) of the types to copy, but 3 were read") == true,
                "\(String(describing: error))")
    }

    @Test("a source that gives every item it counts is verified as before")
    func completeSourcePasses() throws {
        let (source, target) = try Self.stores(hiding: [])
        defer { try? source.tearDown(); try? target.tearDown() }
        let report = try Migration(source: source, target: target).run()
        #expect(report.verified)
        #expect(report.written == 4)
    }
}
