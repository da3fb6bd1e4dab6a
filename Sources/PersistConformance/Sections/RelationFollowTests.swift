import Foundation
import Persist
import Testing

/// Following relations: filters through them, related items read with a request's results, the
/// typed forms, and live queries of results with their related items.
enum RelationFollowTests {
    typealias T = RelationTests

    struct Album: DataStoreEntity, Equatable {
        static let itemType = "Album"
        var id: Int64
        var artistId: Int64?
        var title: String
    }

    struct Track: DataStoreEntity, Equatable {
        static let itemType = "Track"
        var id: Int64
        var albumId: Int64?
        var name: String
    }

    /// Two artists, three albums, five tracks; the relations track → album → artist.
    static func music(_ store: any DataStore) throws -> (trackAlbum: DataStoreRelation, albumArtist: DataStoreRelation) {
        let relations = try store.writeSync { accessor in
            (try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .cascade),
             try accessor.ensureRelation(ofType: "Album", on: ["artistId"], to: "Artist", onDelete: .cascade))
        }
        try seed(store, [
            Item(itemType: "Artist", id: 1, attributes: ["name": "AC/DC"]),
            Item(itemType: "Artist", id: 2, attributes: ["name": "Accept"]),
            T.album(1, artist: 1, "Let There Be Rock"), T.album(2, artist: 2, "Balls to the Wall"),
            T.album(3, artist: 1, "Back in Black"),
            T.track(10, album: 1), T.track(11, album: 2), T.track(12, album: 3), T.track(13, album: 3),
            T.track(14, album: .null),
        ])
        return relations
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("a request filters through relations: tracks whose album's artist is AC/DC", group: .relations) { context in
            let store = try context.makeStore()
            let (trackAlbum, albumArtist) = try music(store)
            var request = DataStoreRequest(itemType: "Track")
            request.relatedFilters = [RelatedFilter(via: [trackAlbum, albumArtist], where: .attribute("name") == "AC/DC")]
            try store.read { (accessor: DataStoreReadAccessor) throws in
                #expect(try accessor.items(forRequest: request).map(\.id) == [10, 12, 13])
                #expect(try accessor.countItems(forRequest: request) == 3)
                #expect(try accessor.getAll(Track.self, forRequest: request).map(\.id) == [10, 12, 13])
                // With the request's own filter, order, offset and limit.
                var page = request
                page.filter = .attribute("name") != "t12"
                page.setSort(byKey: "name", ascending: false)
                page.limit = 1
                #expect(try accessor.items(forRequest: page).map(\.id) == [13])
                var none = request
                none.relatedFilters = [RelatedFilter(via: [trackAlbum], where: .attribute("title") == "Nothing")]
                #expect(try accessor.items(forRequest: none).isEmpty)
            }
            // Set-based writes take the same filter.
            #expect(try store.writeSync { accessor in try accessor.updateItems(forRequest: request, setting: ["loud": true]) } == 3)
            #expect(try store.writeSync { accessor in try accessor.deleteItems(forRequest: request) } == 3)
            #expect(try allItems(store, "Track").map(\.id) == [11, 14])
        },
        ConformanceTest("a related filter whose relations do not chain from the request's type is refused",
                        group: .relations) { context in
            let store = try context.makeStore()
            let (trackAlbum, albumArtist) = try music(store)
            var request = DataStoreRequest(itemType: "Track")
            request.relatedFilters = [RelatedFilter(via: [albumArtist, trackAlbum], where: .attribute("name") == "x")]
            let error = expectError(.invalidArgument) { try store.read { accessor in try accessor.items(forRequest: request) } }
            #expect(error?.message.contains("Album_artistId_fkey") == true)
            request.relatedFilters = [RelatedFilter(via: [], where: .attribute("name") == "x")]
            expectError(.invalidArgument) { try store.read { accessor in try accessor.items(forRequest: request) } }
        },
        ConformanceTest("a request includes the related items of its results, both ways", group: .relations) { context in
            let store = try context.makeStore()
            let (trackAlbum, albumArtist) = try music(store)
            let tracks = try store.read { accessor in
                try accessor.items(forRequest: DataStoreRequest(itemType: "Track"), including: [.related(via: trackAlbum)])
            }
            #expect(tracks.items.map(\.id) == [10, 11, 12, 13, 14])
            #expect(tracks.items.map { tracks.relatedItem(of: $0, via: trackAlbum)?.id } == [1, 2, 3, 3, nil])
            let albums = try store.read { accessor in
                try accessor.items(forRequest: DataStoreRequest(itemType: "Album"),
                                   including: [.referring(via: trackAlbum), .related(via: albumArtist)])
            }
            #expect(albums.items.map { albums.items(relatedTo: $0, via: trackAlbum).map(\.id) } == [[10], [11], [12, 13]])
            #expect(albums.items.map { albums.relatedItem(of: $0, via: albumArtist)?["name"] } == ["AC/DC", "Accept", "AC/DC"])
            let first = try #require(albums.items.first)
            #expect(try albums.referring(Track.self, to: first, via: trackAlbum).map(\.name) == ["t10"])
            // An include that does not start or end at the request's type is refused.
            expectError(.invalidArgument) {
                try store.read { (accessor: DataStoreReadAccessor) throws in
                    try accessor.items(forRequest: DataStoreRequest(itemType: "Track"), including: [.referring(via: albumArtist)])
                }
            }
        },
        ConformanceTest("typed entities declare and follow relations both ways", group: .relations) { context in
            let store = try context.makeStore()
            let (trackAlbum, _) = try music(store)
            let declared = try store.writeSync { accessor in
                try accessor.ensureRelation(Track.self, on: ["albumId"], to: Album.self, onDelete: .cascade)
            }
            #expect(declared == trackAlbum)
            expectError(.referenceViolation) {
                try store.writeSync { accessor in try accessor.insert(Track(id: 20, albumId: 99, name: "lost")) }
            }
            try store.read { (accessor: DataStoreReadAccessor) throws in
                let track = try #require(try accessor.getById(Track.self, id: 12))
                let album = try #require(try accessor.related(Album.self, of: track, via: trackAlbum))
                #expect(album == Album(id: 3, artistId: 1, title: "Back in Black"))
                #expect(try accessor.getAll(Track.self, relatedTo: album, via: trackAlbum).map(\.id) == [12, 13])
                expectError(.invalidArgument) { try accessor.related(Track.self, of: track, via: trackAlbum) }
            }
        },
        ConformanceTest("a live query with related items is refreshed when a related item changes", group: .concurrency) { context in
            let store = try context.makeStore()
            let (trackAlbum, _) = try music(store)
            let recorder = ObservationRecorder(store.observe(DataStoreRequest(itemType: "Album"),
                                                             including: [.referring(via: trackAlbum)]))
            func lines(_ result: IncludedItems) -> [Int] {
                result.items.map { result.items(relatedTo: $0, via: trackAlbum).count }
            }
            try await recorder.waitFor { $0.count == 1 }
            #expect(recorder.results.map(lines) == [[1, 1, 2]])
            // Only a track changes: the albums are the same, their related items are not.
            try store.writeSync { accessor in try accessor.insert(T.track(15, album: 1)) }
            try await recorder.waitFor { $0.last.map(lines) == [2, 1, 2] }
            try store.writeSync { accessor in try accessor.insert(Item(itemType: "Other", id: 1)) }
            try store.writeSync { accessor in try accessor.deleteItem(ofType: "Track", id: 11) }
            try await recorder.waitFor { $0.last.map(lines) == [2, 0, 2] }
            #expect(recorder.results.count == 3)
            await recorder.cancel()
        },
    ]
}
