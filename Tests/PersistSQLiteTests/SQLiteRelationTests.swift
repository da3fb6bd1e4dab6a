import Foundation
import Persist
import PersistConformance
@testable import PersistSQLite
import PersistTestSupport
import Testing

/// Relations on SQLite: adopted foreign keys, declared relations made foreign keys, and the
/// foreign keys Persist's own connections enforce.
@Suite struct SQLiteRelationTests {
    static let legacy = """
        CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT, code TEXT UNIQUE);
        CREATE TABLE book (id INTEGER PRIMARY KEY, author_id INTEGER REFERENCES author (id) ON DELETE CASCADE,
                           title TEXT);
        CREATE TABLE review (id INTEGER PRIMARY KEY, book_id INTEGER,
                             CONSTRAINT review_of_book FOREIGN KEY (book_id) REFERENCES book (id));
        CREATE TABLE note (id INTEGER PRIMARY KEY, book_id INTEGER REFERENCES book ON DELETE SET NULL,
                           author_id INTEGER DEFAULT 2 REFERENCES author (id) ON DELETE SET DEFAULT,
                           guarded INTEGER REFERENCES book (id) ON DELETE RESTRICT,
                           author_code TEXT REFERENCES author (code));
        CREATE TABLE edition (book INTEGER, number INTEGER, PRIMARY KEY (book, number));
        CREATE TABLE copy (id INTEGER PRIMARY KEY, number INTEGER, book INTEGER,
                           FOREIGN KEY (number, book) REFERENCES edition (number, book) ON DELETE CASCADE);
        INSERT INTO author VALUES (1, 'Ann', 'A'), (2, 'Bob', 'B');
        INSERT INTO book VALUES (10, 1, 'First'), (11, 2, 'Second');
        INSERT INTO review VALUES (100, 11);
        INSERT INTO edition VALUES (10, 1);
        INSERT INTO copy VALUES (1000, 1, 10);
        """

    @Test("adopted foreign keys are relations with their actions, names and parent key order")
    func adoptedForeignKeys() throws {
        try withFileStore(creatingWith: Self.legacy) { store, _ in
            let byName = Dictionary(uniqueKeysWithValues: try store.read { accessor in
                try ["book", "review", "note", "copy"].flatMap { try accessor.relations(ofType: $0) }
            }.map { ($0.name, $0) })
            #expect(byName["book_author_id_fkey"] == DataStoreRelation(itemType: "book", attributes: ["author_id"],
                                                                         relatedType: "author", onDelete: .cascade))
            #expect(byName["review_of_book"]?.onDelete == .deny)
            #expect(byName["note_book_id_fkey"]?.onDelete == .nullify)
            #expect(byName["note_author_id_fkey"]?.onDelete == .engineAction("SET DEFAULT"))
            #expect(byName["note_guarded_fkey"]?.onDelete == .deny)
            // Referred by (number, book), listed in the order of edition's key (book, number).
            #expect(byName["copy_book_number_fkey"]?.attributes == ["book", "number"])
            // A foreign key to a UNIQUE column is no relation to an identifier.
            #expect(byName["note_author_code_fkey"] == nil)
            #expect(byName.count == 6)
        }
    }

    @Test("Persist's writes honour foreign keys a legacy program never turned on, checked when the block ends")
    func legacyForeignKeysEnforced() throws {
        try withFileStore(creatingWith: Self.legacy + "INSERT INTO review VALUES (101, 99);") { store, path in
            // A dangling reference a legacy write left does not stop other writes.
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "review", id: 102, attributes: ["book_id": 10]))
            }
            // Order within a block does not matter.
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "review", id: 103, attributes: ["book_id": 12]))
                try accessor.insert(Item(itemType: "book", id: 12, attributes: ["title": "Third"]))
            }
            let error = expectError(.referenceViolation) {
                try store.writeSync { accessor in
                    try accessor.insert(Item(itemType: "review", id: 104, attributes: ["book_id": 13]))
                }
            }
            #expect(error?.items == [ItemReference(itemType: "review", id: 104), ItemReference(itemType: "book", id: 13)])
            expectError(.referenceViolation) {
                try store.writeSync { accessor in _ = try accessor.deleteItem(ofType: "book", id: 11) }
            }
            #expect(try allItems(store, "book").count == 3)
            let raw = try RawDatabase(path)
            defer { raw.close() }
            // The legacy program's own connections still do not enforce them.
            #expect(try raw.rows("PRAGMA foreign_keys") == [[.integer(0)]])
        }
    }

    @Test("SQLite carries out an adopted CASCADE and SET NULL; a cascade reaching a protected row fails the block")
    func engineCascades() throws {
        try withFileStore(creatingWith: Self.legacy) { store, _ in
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "note", id: 5, attributes: ["book_id": 10]))
                _ = try accessor.deleteItem(ofType: "author", id: 1)
            }
            #expect(try allItems(store, "book").map(\.id) == [11])
            #expect(try store.read { try $0.item(ofType: "note", id: 5) }?["book_id"] == nil)
            // Deleting author 2 cascades to book 11, which review 100 refers to (NO ACTION).
            let error = expectError(.referenceViolation) {
                try store.writeSync { accessor in
                    _ = try accessor.deleteItem(ofType: "note", id: 5)
                    _ = try accessor.deleteItem(ofType: "author", id: 2)
                }
            }
            #expect(error?.items == [ItemReference(itemType: "review", id: 100), ItemReference(itemType: "book", id: 11)])
            #expect(try allItems(store, "author").map(\.id) == [2])
        }
    }

    @Test("a commit SQLite refuses names the row the block broke, not one a legacy program left broken")
    func commitViolationNamesTheBlocksRow() throws {
        try withFileStore(creatingWith: Self.legacy + "INSERT INTO review VALUES (50, 99);") { store, _ in
            let error = expectError(.referenceViolation) {
                try store.writeSync { accessor in _ = try accessor.deleteItem(ofType: "author", id: 2) }
            }
            #expect(error?.items == [ItemReference(itemType: "review", id: 100), ItemReference(itemType: "book", id: 11)])
            #expect(error?.message.contains("review_of_book") == true)
            // A foreign key to a UNIQUE column is no relation, yet SQLite enforces it.
            let unique = expectError(.referenceViolation) {
                try store.writeSync { accessor in
                    try accessor.insert(Item(itemType: "note", id: 6, attributes: ["author_code": "Z"]))
                }
            }
            #expect(unique?.items == [ItemReference(itemType: "note", id: 6)])
            let stored = try store.read { try $0.item(ofType: "note", id: 6) }
            #expect(stored == nil)
        }
    }

    @Test("a declared relation becomes a foreign key with its action, and survives reopening")
    func declaredRelationIsForeignKey() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.sqlite")
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        try store.writeSync { accessor in
            try accessor.insert(Item(itemType: "Album", id: 1, attributes: ["title": "One"]))
            try accessor.insert(Item(itemType: "Track", id: 1, attributes: ["albumId": 1, "name": "a"]))
            try accessor.insert(Item(itemType: "Track", id: 2, attributes: ["albumId": 1, "name": "b"]))
            try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .cascade)
        }
        let raw = try RawDatabase(path)
        #expect(try raw.rows("SELECT \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list('Track')")
                == [[.text("Album"), .text("albumId"), .text("persist_id"), .text("CASCADE")]])
        #expect(try raw.rows("PRAGMA foreign_key_check").isEmpty)
        raw.close()
        try store.writeSync { accessor in _ = try accessor.deleteItem(ofType: "Album", id: 1) }
        #expect(try allItems(store, "Track").isEmpty)
        try store.tearDown()

        let reopened = SQLiteDataStore(path: path, options: quietOptions())
        try reopened.setup()
        defer { try? reopened.tearDown() }
        #expect(try reopened.relations(ofType: "Track").map(\.name) == ["Track_albumId_fkey"])
        let again = try reopened.writeSync { accessor in
            try accessor.ensureRelation(ofType: "Track", on: ["albumId"], to: "Album", onDelete: .cascade)
        }
        #expect(again.name == "Track_albumId_fkey")
    }

    @Test("a relation declared before its tables exist becomes a foreign key with them; one to tagged keys stays Persist's")
    func pendingAndTaggedRelations() throws {
        try withFileStore { store, path in
            try store.writeSync { accessor in
                try accessor.ensureRelation(ofType: "Line", on: ["order"], to: "Order", onDelete: .cascade)
            }
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "Line", id: 1, attributes: ["order": 7]))
                try accessor.insert(Item(itemType: "Order", id: 7, attributes: ["total": 3]))
                try accessor.insert(Item(itemType: "Slot", id: try ItemID(components: [1, "a"]), attributes: [:]))
                try accessor.insert(Item(itemType: "Booking", id: 1, attributes: ["day": 1, "room": "a"]))
                try accessor.ensureRelation(ofType: "Booking", on: ["day", "room"], to: "Slot", onDelete: .cascade)
            }
            let raw = try RawDatabase(path)
            defer { raw.close() }
            #expect(try raw.rows("SELECT \"table\", on_delete FROM pragma_foreign_key_list('Line')")
                    == [[.text("Order"), .text("CASCADE")]])
            // Slot holds composite identifiers as tagged keys, which no plain column equals.
            #expect(try raw.rows("SELECT * FROM pragma_foreign_key_list('Booking')").isEmpty)
            try store.writeSync { accessor in
                _ = try accessor.deleteItem(ofType: "Order", id: 7)
                _ = try accessor.deleteItem(ofType: "Slot", id: try ItemID(components: [1, "a"]))
            }
            #expect(try allItems(store, "Line").isEmpty)
            #expect(try allItems(store, "Booking").isEmpty)
            #expect(try store.relations(ofType: "Booking").map(\.name) == ["Booking_day_room_fkey"])
        }
    }

    @Test("relations over composite keys of declared tables become foreign keys; none to a keyless table")
    func compositeKeysAndKeylessTables() throws {
        let schema = """
            CREATE TABLE playlist (PlaylistId INTEGER NOT NULL PRIMARY KEY, Name TEXT);
            CREATE TABLE track (TrackId INTEGER NOT NULL PRIMARY KEY, Name TEXT);
            CREATE TABLE playlist_track (PlaylistId INTEGER NOT NULL, TrackId INTEGER NOT NULL,
                                         PRIMARY KEY (PlaylistId, TrackId));
            CREATE TABLE listen (id INTEGER PRIMARY KEY, p INTEGER, t INTEGER);
            CREATE TABLE loose (name TEXT);
            INSERT INTO playlist VALUES (1, 'Mix'); INSERT INTO track VALUES (7, 'Song');
            INSERT INTO playlist_track VALUES (1, 7); INSERT INTO listen VALUES (1, 1, 7);
            INSERT INTO loose VALUES ('x');
            """
        try withFileStore(creatingWith: schema) { store, path in
            try store.writeSync { accessor in
                try accessor.ensureRelation(ofType: "playlist_track", on: ["PlaylistId"], to: "playlist", onDelete: .cascade)
                try accessor.ensureRelation(ofType: "playlist_track", on: ["TrackId"], to: "track", onDelete: .deny)
                try accessor.ensureRelation(ofType: "listen", on: ["p", "t"], to: "playlist_track", onDelete: .nullify)
            }
            let raw = try RawDatabase(path)
            defer { raw.close() }
            #expect(try raw.rows("SELECT \"table\", on_delete FROM pragma_foreign_key_list('playlist_track') ORDER BY id DESC")
                    == [[.text("playlist"), .text("CASCADE")], [.text("track"), .text("NO ACTION")]])
            #expect(try raw.rows("SELECT \"from\", \"to\", on_delete FROM pragma_foreign_key_list('listen') ORDER BY seq")
                    == [[.text("p"), .text("PlaylistId"), .text("SET NULL")], [.text("t"), .text("TrackId"), .text("SET NULL")]])
            #expect(try raw.rows("PRAGMA foreign_key_check").isEmpty)
            try store.writeSync { accessor in _ = try accessor.deleteItem(ofType: "playlist", id: 1) }
            #expect(try raw.rows("SELECT * FROM playlist_track").isEmpty)
            #expect(try raw.rows("SELECT p, t FROM listen") == [[.null, .null]])
            let error = expectError(.invalidArgument) {
                try store.writeSync { accessor in
                    try accessor.ensureRelation(ofType: "listen", on: ["p"], to: "loose", onDelete: .deny)
                }
            }
            #expect(error?.message.contains("listen_p_fkey") == true)
        }
    }

    @Test("items(ofType:ids:) reads single, composite and tagged keys, over many statements")
    func itemsByIdentifiers() throws {
        try withFileStore(creatingWith: Self.legacy) { store, path in
            try store.writeSync { accessor in
                for number in 0..<2_000 {
                    try accessor.insert(Item(itemType: "Tag", id: .string("t\(number)"), attributes: ["n": .int(Int64(number))]))
                }
                try accessor.insert(Item(itemType: "Pair", id: try ItemID(components: [1, "a"]), attributes: [:]))
                try accessor.insert(Item(itemType: "Pair", id: try ItemID(components: [2, "b"]), attributes: [:]))
            }
            let engine = SQLiteEngine(path: path, options: quietOptions(), isScratch: false)
            try engine.open()
            defer { try? engine.close() }
            try engine.read { reader in
                let tags = try reader.items(ofType: "Tag", ids: (0..<1_500).map { .string("t\($0 * 2)") } + [.int(3)])
                #expect(tags.count == 1_000)
                let books = try reader.items(ofType: "book", ids: [10, 11, 12, .string("10")])
                #expect(Set(books.map(\.id)) == [10, 11])
                let editions = try reader.items(ofType: "edition", ids: [try ItemID(components: [10, 1]), try ItemID(components: [1, 10])])
                #expect(editions.map(\.id) == [try ItemID(components: [10, 1])])
                let pairs = try reader.items(ofType: "Pair", ids: [try ItemID(components: [2, "b"]), try ItemID(components: [2, "a"])])
                #expect(pairs.map(\.id) == [try ItemID(components: [2, "b"])])
            }
        }
    }
}
