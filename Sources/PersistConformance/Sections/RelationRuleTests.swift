import Foundation
import Persist
import Testing

/// The delete rules of relations, and the declarations every store refuses.
enum RelationRuleTests {
    typealias T = RelationTests

    static let all: [ConformanceTest] = [
        ConformanceTest("deny refuses deleting a referred item, unless its referrers go in the same block",
                        group: .relations) { context in
            let store = try context.makeStore()
            try T.relate(store, "Track", ["albumId"], "Album", .deny)
            try seed(store, [T.album(1), T.album(2), T.track(10, album: 1)])
            let error = expectError(.referenceViolation) {
                try store.writeSync { accessor in try accessor.deleteItem(ofType: "Album", id: 1) }
            }
            #expect(T.references(error) == [ItemReference(itemType: "Album", id: 1), ItemReference(itemType: "Track", id: 10)])
            expectError(.referenceViolation) {
                try store.writeSync { accessor in try accessor.deleteItems(forRequest: DataStoreRequest(itemType: "Album")) }
            }
            expectError(.referenceViolation) { try store.writeSync { accessor in try accessor.deleteAllItems(ofType: "Album") } }
            #expect(try allItems(store, "Album").map(\.id) == [1, 2])
            try store.writeSync { accessor in try accessor.deleteItem(ofType: "Album", id: 2) }
            try store.writeSync { accessor in
                try accessor.deleteItem(ofType: "Album", id: 1)
                try accessor.updateItems(forRequest: DataStoreRequest(itemType: "Track"), setting: ["albumId": .null])
            }
            #expect(try allItems(store, "Album").isEmpty)
            #expect(try allItems(store, "Track").count == 1)
        },
        ConformanceTest("cascade deletes the referrers, and theirs, with every kind of delete", group: .relations) { context in
            let store = try context.makeStore()
            try T.relate(store, "Album", ["artistId"], "Artist", .cascade)
            try T.relate(store, "Track", ["albumId"], "Album", .cascade)
            func fill() throws {
                try seed(store, [T.artist(1), T.artist(2), T.album(1, artist: 1), T.album(2, artist: 1), T.album(3, artist: 2),
                                 T.track(10, album: 1), T.track(11, album: 2), T.track(12, album: 3)])
            }
            try fill()
            try store.writeSync { accessor in try accessor.deleteItem(ofType: "Artist", id: 1) }
            #expect(try allItems(store, "Album").map(\.id) == [3])
            #expect(try allItems(store, "Track").map(\.id) == [12])
            var request = DataStoreRequest(itemType: "Artist")
            request.filter = .attribute("name") == "a2"
            #expect(try store.writeSync { accessor in try accessor.deleteItems(forRequest: request) } == 1)
            #expect(try allItems(store, "Album").isEmpty)
            #expect(try allItems(store, "Track").isEmpty)
            try fill()
            try store.writeSync { accessor in try accessor.deleteAllItems(ofType: "Artist") }
            #expect(try allItems(store, "Track").isEmpty)
            // A mutable item handed out before the cascade is marked deleted with it.
            try fill()
            try store.writeSync { accessor in
                let held = try #require(try accessor.mutableItems(forRequest: DataStoreRequest(itemType: "Track")).first)
                try accessor.deleteItem(ofType: "Artist", id: 1)
                #expect(held.isDeleted)
            }
            #expect(try allItems(store, "Track").map(\.id) == [12])
        },
        ConformanceTest("cascade follows a relation of a type to itself", group: .relations) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor in
                try accessor.ensureRelation(ofType: "Employee", on: ["reportsTo"], to: "Employee", onDelete: .cascade)
                try accessor.insert(Item(itemType: "Employee", id: 1, attributes: [:]))
                try accessor.insert(Item(itemType: "Employee", id: 2, attributes: ["reportsTo": 1]))
                try accessor.insert(Item(itemType: "Employee", id: 3, attributes: ["reportsTo": 2]))
                try accessor.insert(Item(itemType: "Employee", id: 4, attributes: [:]))
            }
            try store.writeSync { accessor in try accessor.deleteItem(ofType: "Employee", id: 1) }
            #expect(try allItems(store, "Employee").map(\.id) == [4])
        },
        ConformanceTest("nullify clears the referring attributes and keeps the referrers", group: .relations) { context in
            let store = try context.makeStore()
            try T.relate(store, "Track", ["albumId"], "Album", .nullify)
            try seed(store, [T.album(1), T.album(2), T.track(10, album: 1), T.track(11, album: 2)])
            try store.writeSync { accessor in try accessor.deleteItem(ofType: "Album", id: 1) }
            let tracks = try allItems(store, "Track")
            #expect(tracks.map(\.id) == [10, 11])
            #expect(tracks[0]["albumId"] == nil)
            #expect(tracks[0]["name"] == "t10")
            #expect(tracks[1]["albumId"] == 2)
        },
        ConformanceTest("declaring a relation over items that already break it fails, naming the first",
                        group: .relations) { context in
            let store = try context.makeStore()
            try seed(store, [T.album(1), T.track(10, album: 1), T.track(11, album: 5), T.track(12, album: 6)])
            let error = expectError(.referenceViolation) { try T.relate(store, "Track", ["albumId"], "Album", .deny) }
            #expect(T.references(error) == [ItemReference(itemType: "Track", id: 11), ItemReference(itemType: "Album", id: 5)])
            #expect(try store.relations(ofType: "Track").isEmpty)
            try seed(store, [T.album(5), T.album(6)])
            try T.relate(store, "Track", ["albumId"], "Album", .deny)
            #expect(try store.relations(ofType: "Track").count == 1)
        },
        ConformanceTest("a relation whose attributes cannot hold the related identifiers is refused, naming it",
                        group: .relations) { context in
            let store = try context.makeStore()
            try seed(store, [T.album(1), Item(itemType: "Pair", id: .composite([1, 2]), attributes: [:]),
                             Item(itemType: "Note", id: 1, attributes: ["albumId": "1"])])
            let count = expectError(.invalidArgument) { try T.relate(store, "Track", ["albumId", "disc"], "Album", .deny) }
            #expect(count?.message.contains("Track_albumId_disc_fkey") == true)
            expectError(.invalidArgument) { try T.relate(store, "Track", ["pair"], "Pair", .deny) }
            let kind = expectError(.invalidArgument) { try T.relate(store, "Note", ["albumId"], "Album", .deny) }
            #expect(kind?.message.contains("Note_albumId_fkey") == true)
            expectError(.invalidArgument) { try T.relate(store, "Track", [], "Album", .deny) }
            expectError(.invalidArgument) { try T.relate(store, "Track", ["a", "a"], "Pair", .deny) }
            expectError(.invalidArgument) { try T.relate(store, "Track", ["a"], "", .deny) }
            expectError(.invalidArgument) { try T.relate(store, "Track", ["a"], "Album", .engineAction("SET DEFAULT")) }
            #expect(try store.relations(ofType: "Track").isEmpty)
            #expect(try store.relations(ofType: "Note").isEmpty)
        },
        ConformanceTest("a second relation of the same name with other rules is refused, naming it", group: .relations) { context in
            let store = try context.makeStore()
            try T.relate(store, "Track", ["albumId"], "Album", .deny, name: "onAlbum")
            let error = expectError(.invalidArgument) { try T.relate(store, "Track", ["albumId"], "Album", .cascade, name: "onAlbum") }
            #expect(error?.message.contains("onAlbum") == true)
            #expect(try store.relations(ofType: "Track").map(\.onDelete) == [.deny])
        },
        ConformanceTest("a cycle of cascading deletes through two or more types is refused", group: .relations) { context in
            let store = try context.makeStore()
            try T.relate(store, "B", ["aId"], "A", .cascade)
            try T.relate(store, "C", ["bId"], "B", .cascade)
            let error = expectError(.invalidArgument) { try T.relate(store, "A", ["cId"], "C", .cascade) }
            #expect(error?.message.contains("A_cId_fkey") == true)
            try T.relate(store, "A", ["cId"], "C", .nullify)
            #expect(try store.relations(ofType: "A").map(\.onDelete) == [.nullify])
        },
    ]
}
