import Foundation
import Persist
import Testing

/// Relations: declaring and listing them, references checked when a block ends, following them.
enum RelationTests {
    static func album(_ id: ItemID, artist: Value = .null, _ title: String = "") -> Item {
        Item(itemType: "Album", id: id, attributes: ["artistId": artist, "title": .string(title)])
    }

    static func track(_ id: ItemID, album: Value) -> Item {
        Item(itemType: "Track", id: id, attributes: ["albumId": album, "name": .string("t\(id)")])
    }

    static func artist(_ id: ItemID) -> Item {
        Item(itemType: "Artist", id: id, attributes: ["name": .string("a\(id)")])
    }

    @discardableResult
    static func relate(_ store: any DataStore, _ itemType: String, _ attributes: [String], _ relatedType: String,
                       _ rule: DataStoreRelation.DeleteRule, name: String? = nil) throws -> DataStoreRelation {
        try store.writeSync { accessor in
            try accessor.ensureRelation(ofType: itemType, on: attributes, to: relatedType, onDelete: rule, name: name)
        }
    }

    static func references(_ error: DataStoreError?) -> Set<ItemReference> { Set(error?.items ?? []) }

    static let all: [ConformanceTest] = [
        ConformanceTest("ensureRelation declares a relation once, lists it, and indexes its attributes",
                        group: .relations) { context in
            let store = try context.makeStore()
            let first = try relate(store, "Track", ["albumId"], "Album", .cascade)
            #expect(first.name == "Track_albumId_fkey")
            #expect(first == DataStoreRelation(itemType: "Track", attributes: ["albumId"], relatedType: "Album", onDelete: .cascade))
            let again = try relate(store, "Track", ["albumId"], "Album", .cascade)
            #expect(again == first)
            #expect(try store.relations(ofType: "Track") == [first])
            #expect(try store.relations(ofType: "Album").isEmpty)
            #expect(try store.indexes(ofType: "Track").contains { $0.attributes == ["albumId"] })
            // A second relation of the type under its own name.
            let named = try relate(store, "Track", ["composerId"], "Artist", .nullify, name: "byComposer")
            #expect(try store.relations(ofType: "Track").map(\.name).sorted() == ["Track_albumId_fkey", "byComposer"])
            #expect(named.onDelete == .nullify)
            let inBlock = try store.writeSync { accessor in
                try accessor.ensureRelation(ofType: "Album", on: ["artistId"], to: "Artist", onDelete: .deny)
                return try accessor.relations(ofType: "Album")
            }
            #expect(inBlock.map(\.relatedType) == ["Artist"])
        },
        ConformanceTest("a block that leaves a reference to a missing item fails whole, naming both items",
                        group: .relations) { context in
            let store = try context.makeStore()
            try relate(store, "Track", ["albumId"], "Album", .deny)
            try seed(store, [album(1)])
            let error = expectError(.referenceViolation) {
                try store.writeSync { accessor in
                    try accessor.insert(track(10, album: 1))
                    try accessor.insert(track(11, album: 99))
                }
            }
            #expect(references(error) == [ItemReference(itemType: "Track", id: 11), ItemReference(itemType: "Album", id: 99)])
            #expect(error?.message.contains("Track_albumId_fkey") == true)
            #expect(try allItems(store, "Track").isEmpty)
            // Within a block the order does not matter: the referred item may come later.
            try store.writeSync { accessor in
                try accessor.insert(track(12, album: 2))
                try accessor.insert(album(2))
            }
            #expect(try allItems(store, "Track").map(\.id) == [12])
            // A null or missing reference refers to nothing.
            try seed(store, [track(13, album: .null), Item(itemType: "Track", id: 14, attributes: ["name": "x"])])
            #expect(try allItems(store, "Track").count == 3)
        },
        ConformanceTest("every kind of write is checked: save, mutable items, set updates and typed rows",
                        group: .relations) { context in
            let store = try context.makeStore()
            try relate(store, "Track", ["albumId"], "Album", .deny)
            try seed(store, [album(1), track(10, album: 1)])
            expectError(.referenceViolation) { try store.writeSync { accessor in try accessor.save(track(10, album: 5)) } }
            expectError(.referenceViolation) {
                try store.writeSync { accessor in
                    let item = try accessor.createItem(ofType: "Track", id: 20)
                    item["albumId"] = 7
                }
            }
            expectError(.referenceViolation) {
                try store.writeSync { accessor in
                    try accessor.updateItems(forRequest: DataStoreRequest(itemType: "Track"), setting: ["albumId": 8])
                }
            }
            expectError(.referenceViolation) {
                try store.writeSync { accessor in try accessor.save(TypedTrack(id: 30, albumId: 9, name: "typed")) }
            }
            #expect(try allItems(store, "Track") == [track(10, album: 1)])
            // Clearing a reference through a set update is allowed.
            try store.writeSync { accessor in
                try accessor.updateItems(forRequest: DataStoreRequest(itemType: "Track"), setting: ["albumId": .null])
            }
            #expect(try allItems(store, "Track").first?["albumId"] == nil)
        },
        ConformanceTest("a composite identifier is referred to by several attributes", group: .relations) { context in
            let store = try context.makeStore()
            let lineType = "Line", orderType = "OrderPart"
            try seed(store, [Item(itemType: orderType, id: .composite([1, "a"]), attributes: ["note": "x"])])
            let relation = try relate(store, lineType, ["order", "part"], orderType, .cascade)
            try seed(store, [Item(itemType: lineType, id: 1, attributes: ["order": 1, "part": "a"])])
            expectError(.referenceViolation) {
                try seed(store, [Item(itemType: lineType, id: 2, attributes: ["order": 1, "part": "b"])])
            }
            let line = try #require(try allItems(store, lineType).first)
            let order = try store.read { accessor in try accessor.relatedItem(of: line, via: relation) }
            #expect(order?.id == .composite([1, "a"]))
            try store.writeSync { accessor in try accessor.deleteItem(ofType: orderType, id: .composite([1, "a"])) }
            #expect(try allItems(store, lineType).isEmpty)
        },
        ConformanceTest("relatedItem(of:via:) and items(relatedTo:via:) follow a relation both ways",
                        group: .relations) { context in
            let store = try context.makeStore()
            let byAlbum = try relate(store, "Track", ["albumId"], "Album", .deny)
            try seed(store, [album(1), album(2), track(10, album: 1), track(11, album: 1), track(12, album: 2),
                             track(13, album: .null)])
            try store.read { accessor in
                let tracks = try accessor.items(forRequest: DataStoreRequest(itemType: "Track"))
                #expect(try accessor.relatedItem(of: tracks[0], via: byAlbum)?.id == 1)
                #expect(try accessor.relatedItem(of: tracks[2], via: byAlbum)?.id == 2)
                #expect(try accessor.relatedItem(of: tracks[3], via: byAlbum) == nil)
                let one = try #require(try accessor.item(ofType: "Album", id: 1))
                #expect(try accessor.items(relatedTo: one, via: byAlbum).map(\.id) == [10, 11])
                expectError(.invalidArgument) { try accessor.relatedItem(of: one, via: byAlbum) }
                expectError(.invalidArgument) { try accessor.items(relatedTo: tracks[0], via: byAlbum) }
            }
        },
        ConformanceTest("a child checks its writes against its parent's relations; a merge that would break one "
                        + "fails whole", group: .relations) { context in
            let parent = try context.makeStore()
            try relate(parent, "Track", ["albumId"], "Album", .deny)
            try seed(parent, [album(1), album(2)])
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            expectError(.referenceViolation) { try seed(child, [track(10, album: 9)]) }
            try seed(child, [track(10, album: 1), track(11, album: 2)])
            // Meanwhile the parent deletes album 2: the child's track 11 would refer to nothing.
            try parent.writeSync { accessor in try accessor.deleteItem(ofType: "Album", id: 2) }
            expectError(.referenceViolation) { try parent.merge(child) }
            #expect(try allItems(parent, "Track").isEmpty)
            try seed(parent, [album(2)])
            try parent.merge(child)
            #expect(try allItems(parent, "Track").map(\.id) == [10, 11])
        },
        ConformanceTest("a relation a child declares is listed by the child and declared in the parent by the merge",
                        group: .relations) { context in
            let parent = try context.makeStore()
            try seed(parent, [album(1)])
            let child = try parent.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            try relate(child, "Track", ["albumId"], "Album", .cascade)
            #expect(try child.relations(ofType: "Track").map(\.relatedType) == ["Album"])
            #expect(try parent.relations(ofType: "Track").isEmpty)
            try seed(child, [track(10, album: 1)])
            expectError(.referenceViolation) { try seed(child, [track(11, album: 3)]) }
            try parent.merge(child)
            #expect(try parent.relations(ofType: "Track").map(\.relatedType) == ["Album"])
            try parent.writeSync { accessor in try accessor.deleteItem(ofType: "Album", id: 1) }
            #expect(try allItems(parent, "Track").isEmpty)
        },
        ConformanceTest("declared relations survive reopening the store", group: .relations,
                        requires: [.persistent, .persistentRelations]) { context in
            let store = try context.makeStore()
            try relate(store, "Track", ["albumId"], "Album", .cascade)
            try seed(store, [album(1), track(10, album: 1)])
            try store.tearDown()
            let reopened = try context.makeStore()
            #expect(try reopened.relations(ofType: "Track").map(\.onDelete) == [.cascade])
            expectError(.referenceViolation) { try seed(reopened, [track(11, album: 2)]) }
            try reopened.writeSync { accessor in try accessor.deleteItem(ofType: "Album", id: 1) }
            #expect(try allItems(reopened, "Track").isEmpty)
        },
    ]
}

/// A typed item of the relation tests.
struct TypedTrack: DataStoreEntity, Equatable {
    static let itemType = "Track"
    var id: Int64
    var albumId: Int64?
    var name: String
}
