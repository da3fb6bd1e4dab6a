import Foundation
import Persist
import PersistGDBM
import PersistSQL
import PersistSQLite
import PersistConformance
import PersistTestSupport
import Testing

/// A link table keyed by two foreign keys, copied from SQLite to a native GDBM file: the schema
/// record names its key columns, so GDBM checks and cascades the relations that refer through them.
@Suite("a GDBM file enforces relations through a copied link table's key columns")
struct GDBMKeyRelationTests {
    @Test("references held in the identifier are checked, denied and cascaded on GDBM")
    func linkTable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let raw = try RawDatabase(directory.path("music.sqlite"))
        try raw.exec("""
            CREATE TABLE playlist (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE track (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE playlist_track (
                playlist_id INTEGER NOT NULL REFERENCES playlist (id) ON DELETE CASCADE,
                track_id INTEGER NOT NULL REFERENCES track (id),
                PRIMARY KEY (playlist_id, track_id));
            INSERT INTO playlist VALUES (1, 'a'), (2, 'b'); INSERT INTO track VALUES (10, 'x'), (11, 'y');
            INSERT INTO playlist_track VALUES (1, 10), (1, 11), (2, 10);
            """)
        raw.close()
        let source = SQLiteDataStore(path: directory.path("music.sqlite"))
        let target = GDBMDataStore(path: directory.path("music.gdbm"))
        try source.setup()
        try target.setup()
        defer {
            try? source.tearDown()
            try? target.tearDown()
        }
        let report = try Migration(source: source, target: target).run()
        #expect(report.relations.map(\.relatedType).sorted() == ["playlist", "track"])
        #expect(try target.relations(ofType: "playlist_track").map(\.attributes).sorted { $0[0] < $1[0] }
                == [["playlist_id"], ["track_id"]])
        // A link to a track that is not stored.
        let missing = expectError(.referenceViolation) {
            try target.writeSync { accessor in try accessor.insert(Item(itemType: "playlist_track", id: .composite([2, 99]))) }
        }
        #expect(missing?.items.contains(ItemReference(itemType: "track", id: 99)) == true, "\(String(describing: missing))")
        // A track a link still refers to cannot be deleted (NO ACTION).
        expectError(.referenceViolation) { try target.writeSync { accessor in try accessor.deleteItem(ofType: "track", id: 11) } }
        // Deleting a playlist deletes its links (CASCADE).
        try target.writeSync { accessor in try accessor.deleteItem(ofType: "playlist", id: 1) }
        #expect(try allItems(target, "playlist_track").map(\.id) == [.composite([2, 10])])
        let link = try #require(try allItems(target, "playlist_track").first)
        let byTrack = try #require(try target.relations(ofType: "playlist_track").first { $0.relatedType == "track" })
        #expect(try target.read { accessor in try accessor.relatedItem(of: link, via: byTrack) }?.id == 10)
        let track = try #require(try allItems(target, "track").first)
        #expect(try target.read { accessor in try accessor.items(relatedTo: track, via: byTrack) }.map(\.id) == [.composite([2, 10])])
        // A key is never cleared, and no predicate names a key column: both are refused, naming the relation.
        let nullify = expectError(.invalidArgument) {
            try target.writeSync { accessor in
                try accessor.ensureRelation(ofType: "playlist_track", on: ["track_id"], to: "track", onDelete: .nullify,
                                            name: "clearsKey")
            }
        }
        #expect(nullify?.message.contains("clearsKey") == true)
        var filtered = DataStoreRequest(itemType: "playlist_track")
        filtered.relatedFilters = [RelatedFilter(via: [byTrack], where: .attribute("name") == "x")]
        let filter = expectError(.invalidArgument) { try target.read { accessor in try accessor.items(forRequest: filtered) } }
        #expect(filter?.message.contains(byTrack.name) == true)
    }
}
