import Foundation
import JSONFileStore
import Persist
import PersistTestSupport
import Testing

/// A model of the tests' own, read and written through the typed fast path.
private struct Note: DataStoreEntity, Equatable {
    static let itemType = "Note"
    var id: Int
    var text: String
    var pinned: Bool
}

/// The example wrapper opts into bulk loading and the typed fast path with public API only; the
/// counts it keeps show that the library takes both.
@Suite("JSONFileStore's fast paths are the ones the library takes")
struct JSONFileStoreFastPathTests {
    /// Runs `body` with a store, set up, on a file in a directory of its own, and the file's path.
    static func withStore(_ body: (JSONFileStore, String) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("items.json")
        let store = JSONFileStore(path: path)
        try store.setup()
        try body(store, path)
        try store.tearDown()
    }

    /// An in-memory store holding `notes` notes and `tags` tags.
    static func source(notes: Int, tags: Int) throws -> InMemoryDataStore {
        let source = InMemoryDataStore()
        try source.setup()
        try source.writeSync { accessor in
            for id in 1...notes { try accessor.insert(Item(itemType: "Note", id: .int(Int64(id)), attributes: ["text": .string("note \(id)")])) }
            for id in 1...tags { try accessor.insert(Item(itemType: "Tag", id: .string("tag\(id)"), attributes: ["name": .string("t\(id)")])) }
        }
        return source
    }

    @Test("a migration into the store loads every item through bulkInsert, in the engine's bulk transaction")
    func migrationLoadsInBulk() throws {
        try Self.withStore { target, path in
            let report = try Migration(source: try Self.source(notes: 120, tags: 30), target: target).run()
            #expect(report.written == 150)
            #expect(report.types.allSatisfy { $0.verified })
            #expect(target.fastPaths.bulkInserted == 150)
            #expect(target.fastPaths.bulkWrites >= 1)
            let reopened = JSONFileStore(path: path)
            try reopened.setup()
            #expect(try reopened.read { accessor in try accessor.countItems(forRequest: DataStoreRequest(itemType: "Note")) } == 120)
            try reopened.tearDown()
        }
    }

    @Test("a dry run loads in bulk too, since the store takes a bulk load back, and leaves no file")
    func dryRunLoadsInBulk() throws {
        try Self.withStore { target, path in
            let report = try Migration(source: try Self.source(notes: 10, tags: 5), target: target,
                                       options: MigrationOptions(dryRun: true, atomic: true)).run()
            #expect(report.dryRun && report.written == 15)
            #expect(target.fastPaths.bulkInserted == 15)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("two items loaded under one identifier fail the load when it finishes, and nothing is kept")
    func duplicateFailsAtFinish() throws {
        let source = InMemoryDataStore()
        try source.setup()
        try source.writeSync { accessor in
            try accessor.insert(Item(itemType: "Draft", id: 1, attributes: ["text": "draft"]))
            try accessor.insert(Item(itemType: "Memo", id: 1, attributes: ["text": "memo"]))
        }
        try Self.withStore { target, path in
            // Both types become notes: the second note 1 is loaded over the first.
            let options = MigrationOptions(transform: { item in Item(itemType: "Note", id: item.id, attributes: item.attributes) })
            let error = try #require(throws: DataStoreError.self) {
                try Migration(source: source, target: target, options: options).run()
            }
            #expect(error.code == .alreadyExists)
            #expect(error.items == [ItemReference(itemType: "Note", id: 1)])
            // Both rows went in without a check; the load's end found the duplicate.
            #expect(target.fastPaths.bulkInserted == 2)
            #expect(try target.read { accessor in try accessor.itemTypes() } == [])
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("bulkInsert stores rows without a check; finishBulkLoad reports each identifier loaded twice")
    func transactionBulkLoad() throws {
        let transaction = JSONFileTransaction(items: [:])
        let first = Item(itemType: "Note", id: 7, attributes: ["text": "first"])
        try transaction.bulkInsert([ItemRow(first), ItemRow(Item(itemType: "Note", id: 8))])
        try transaction.finishBulkLoad()
        try transaction.bulkInsert([ItemRow(Item(itemType: "Note", id: 7, attributes: ["text": "again"]))])
        let error = try #require(throws: DataStoreError.self) { try transaction.finishBulkLoad() }
        #expect(error.code == .alreadyExists)
        #expect(error.items == [first.reference])
        #expect(transaction.rollsBackBulkInserts)
    }

    @Test("typed writes store rows and typed reads decode rows from the stored items")
    func typedFastPath() throws {
        try Self.withStore { store, _ in
            let notes = (1...25).map { Note(id: $0, text: "note \($0)", pinned: $0 % 3 == 0) }
            try store.writeSync { accessor in
                for note in notes { try accessor.insert(note) }
            }
            #expect(store.fastPaths.entityRowsWritten == 25)
            var read = try store.read { accessor in try accessor.getAll(Note.self) }
            read.sort { $0.id < $1.id }
            #expect(read == notes)
            #expect(store.fastPaths.entityRowsRead == 25)
            #expect(try store.read { accessor in try accessor.getById(Note.self, id: 9) } == notes[8])
            #expect(try store.read { accessor in try accessor.getById(Note.self, id: 99) } == nil)
            #expect(store.fastPaths.entityRowsRead == 26)
            var changed = notes[0]
            changed.text = "changed"
            try store.writeSync { accessor in try accessor.update(changed) }
            #expect(store.fastPaths.entityRowsWritten == 26)
            #expect(try store.read { accessor in try accessor.getById(Note.self, id: 1) } == changed)
            // Items written another way decode the same through the rows.
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "Note", id: 100, attributes: ["text": "item", "pinned": true, "extra": 1]))
            }
            #expect(try store.read { accessor in try accessor.getById(Note.self, id: 100) } == Note(id: 100, text: "item", pinned: true))
        }
    }

    @Test("the engine, its reader and its writer are seen with what they conform to, outside the package")
    func capabilityNames() throws {
        try Self.withStore { store, _ in
            let names = try EngineCapabilityNames.of(store.scheduler.engine)
            #expect(names == ["engine.bulkLoading", "reader.entityRows", "writer.entityRows", "writer.bulkLoader",
                              "writer.entityRowWriting"])
        }
    }
}
