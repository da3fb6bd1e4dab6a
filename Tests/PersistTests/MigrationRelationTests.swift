import Foundation
import Persist
import PersistConformance
import Testing

@Suite("Migrations carry relations")
struct MigrationRelationTests {
    func album(_ id: ItemID) -> Item { Item(itemType: "Album", id: id, attributes: ["title": "a"]) }
    func track(_ id: ItemID, _ album: Value) -> Item { Item(itemType: "Track", id: id, attributes: ["albumId": album]) }

    func source(breaking: Bool = false) throws -> InMemoryDataStore {
        let store = InMemoryDataStore()
        try store.setup()
        try store.writeSync { accessor in
            try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .cascade)
            try accessor.insert(album(1))
            try accessor.insert(track(10, 1))
        }
        return store
    }

    func target() throws -> InMemoryDataStore {
        let store = InMemoryDataStore()
        try store.setup()
        return store
    }

    @Test("a copy declares the source's relations on the target, which enforces them")
    func carried() throws {
        let (from, to) = (try source(), try target())
        let report = try Migration(source: from, target: to).run()
        #expect(report.relations.map(\.name) == ["Track_albumId_fkey"])
        #expect(try to.relations(ofType: "Track").map(\.onDelete) == [.cascade])
        expectError(.referenceViolation) { try seed(to, [track(11, 2)]) }
        try to.writeSync { accessor in try accessor.deleteItem(ofType: "Album", id: 1) }
        #expect(try allItems(to, "Track").isEmpty)
    }

    @Test("renames rewrite the relations that name them; a dropped attribute leaves its relation out, with a note")
    func reshaped() throws {
        var options = MigrationOptions()
        options.reshape = MigrationReshape([.renameType("Album", to: "Record"), .renameAttribute("albumId", ofType: "Track", to: "recordId")])
        let to = try target()
        let report = try Migration(source: try source(), target: to, options: options).run()
        #expect(report.relations == [DataStoreRelation(itemType: "Track", attributes: ["recordId"], relatedType: "Record",
                                                       onDelete: .cascade, name: "Track_albumId_fkey")])
        #expect(try to.relations(ofType: "Track").map(\.relatedType) == ["Record"])

        options.reshape = MigrationReshape([.dropAttribute("albumId", ofType: "Track")])
        let dropped = try Migration(source: try source(), target: try target(), options: options).run()
        #expect(dropped.relations.isEmpty)
        #expect(dropped.relationNotes.count == 1)
        #expect(dropped.relationNotes.first?.contains("Track_albumId_fkey") == true)
    }

    @Test("a copy of some types leaves out the relations to the others, and says so")
    func someTypes() throws {
        let to = try target()
        let report = try Migration(source: try source(), target: to, options: MigrationOptions(itemTypes: ["Track"])).run()
        #expect(report.relations.isEmpty)
        #expect(report.relationNotes.first?.contains("Album is not copied") == true)
        #expect(try to.relations(ofType: "Track").isEmpty)
    }

    @Test("a copy whose items break a relation of the target fails whole, naming the first broken reference")
    func brokenReferences() throws {
        let from = try target()
        try seed(from, [album(1), track(10, 1), track(11, 7), track(12, 8)])
        let to = try target()
        try to.writeSync { accessor in
            try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .deny)
        }
        var options = MigrationOptions()
        options.atomic = true
        let error = expectError(.referenceViolation) { try Migration(source: from, target: to, options: options).run() }
        #expect(Set(error?.items ?? []) == [ItemReference(itemType: "Track", id: 11), ItemReference(itemType: "Album", id: 7)])
        #expect(try allItems(to, "Track").isEmpty)
    }

    @Test("carriesRelations false copies the items without the relations and says which were left out")
    func dropped() throws {
        var options = MigrationOptions()
        options.carriesRelations = false
        let to = try target()
        let report = try Migration(source: try source(), target: to, options: options).run()
        #expect(report.relations.isEmpty)
        #expect(report.relationNotes.first?.contains("Track_albumId_fkey") == true)
        #expect(try to.relations(ofType: "Track").isEmpty)
        #expect(try allItems(to, "Track").count == 1)
    }
}
