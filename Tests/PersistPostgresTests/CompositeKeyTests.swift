import Persist
import PersistConformance
import PersistPostgres
import Testing

@Suite("Adopted PostgreSQL tables whose primary key has several columns")
struct CompositeKeyTests {
    /// Chinook's playlist_track, with a few of its rows.
    static let chinook = """
        CREATE TABLE playlist_track (playlist_id int NOT NULL, track_id int NOT NULL, PRIMARY KEY (playlist_id, track_id));
        INSERT INTO playlist_track VALUES (1, 3402), (1, 3389), (8, 3402), (1, 10);
        """

    static func pair(_ playlist: Int64, _ track: Int64) -> ItemID {
        .composite([.int(playlist), .int(track)])
    }

    @Test("playlist_track is adopted in place: reads, inserts, saves and deletes by composite identifiers")
    func crud() throws {
        try withPostgresStore(creatingWith: Self.chinook) { store, _ throws in
            #expect(try store.skippedTables().isEmpty)
            #expect(try allItems(store, "playlist_track").map(\.id)
                == [Self.pair(1, 10), Self.pair(1, 3389), Self.pair(1, 3402), Self.pair(8, 3402)])
            let found = try store.read { try $0.item(ofType: "playlist_track", id: Self.pair(8, 3402)) }
            #expect(found?.id == Self.pair(8, 3402))
            #expect(found?.attributes.isEmpty == true, "key columns are not attributes: \(String(describing: found))")
            #expect(try store.read { try $0.item(ofType: "playlist_track", id: Self.pair(8, 1)) } == nil)
            #expect(try store.read { try $0.item(ofType: "playlist_track", id: .int(8)) } == nil)

            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "playlist_track", id: Self.pair(2, 7)))
                try accessor.save(Item(itemType: "playlist_track", id: Self.pair(2, 8)))
                try accessor.save(Item(itemType: "playlist_track", id: Self.pair(2, 8)))
                #expect(try accessor.deleteItem(ofType: "playlist_track", id: Self.pair(1, 3389)))
                #expect(try !accessor.deleteItem(ofType: "playlist_track", id: Self.pair(1, 3389)))
            }
            let duplicate = expectError(.alreadyExists) {
                try store.writeSync { try $0.insert(Item(itemType: "playlist_track", id: Self.pair(2, 7))) }
            }
            #expect(duplicate?.items.first?.id == Self.pair(2, 7))
            #expect(try store.read { try $0.countItems(forRequest: DataStoreRequest(itemType: "playlist_track")) } == 5)
            #expect(try store.read { try $0.item(ofType: "playlist_track", id: Self.pair(2, 8)) } != nil)
        }
    }

    @Test("an identifier of the wrong shape is refused naming the table and its key columns")
    func wrongShape() throws {
        try withPostgresStore(creatingWith: Self.chinook) { store, _ throws in
            for id: ItemID in [.int(5), .string("1-10"), .composite([.int(1), .int(2), .int(3)]),
                               .composite([.string("a"), .int(2)]), .composite([.int(1), .int(Int64(Int32.max) + 1)])] {
                let error = expectError(.typeMismatch) {
                    try store.writeSync { try $0.insert(Item(itemType: "playlist_track", id: id)) }
                }
                #expect(error?.message.contains("playlist_track") == true, "\(error?.message ?? "no error")")
                #expect(error?.message.contains("(\"playlist_id\", \"track_id\")") == true, "\(error?.message ?? "")")
            }
            let reserved = expectError(.invalidArgument) {
                try store.writeSync {
                    try $0.insert(Item(itemType: "playlist_track", id: Self.pair(3, 3), attributes: ["track_id": 4]))
                }
            }
            #expect(reserved?.message.contains("primary key") == true)
            #expect(try allItems(store, "playlist_track").count == 4)
        }
    }

    @Test("requests break ties by identifier component by component, and set writes reach exactly their rows")
    func tiesAndSetWrites() throws {
        let sql = """
            CREATE TABLE ranked (grp text, n int, score int, PRIMARY KEY (grp, n));
            INSERT INTO ranked VALUES ('b', 1, 5), ('a', 10, 5), ('a', 2, 5), ('a', 3, 1), ('ab', 0, 5);
            """
        try withPostgresStore(creatingWith: sql) { store, _ throws in
            let id = { (grp: String, n: Int64) in ItemID.composite([.string(grp), .int(n)]) }
            let byScore = DataStoreRequest(itemType: "ranked", sortDescriptors: [.descending("score")])
            #expect(try store.read { try $0.items(forRequest: byScore) }.map(\.id)
                == [id("a", 2), id("a", 10), id("ab", 0), id("b", 1), id("a", 3)])
            var window = byScore
            window.offset = 1
            window.limit = 2
            #expect(try store.read { try $0.items(forRequest: window) }.map(\.id) == [id("a", 10), id("ab", 0)])
            #expect(try store.read { try $0.countItems(forRequest: window) } == 2)

            let updated = try store.writeSync { try $0.updateItems(forRequest: window, setting: ["score": 9]) }
            #expect(updated == 2)
            let nines = DataStoreRequest(itemType: "ranked", filter: .attribute("score") == 9)
            #expect(try store.read { try $0.items(forRequest: nines) }.map(\.id) == [id("a", 10), id("ab", 0)])
            // Now by score: a/10 and ab/0 (9), a/2 and b/1 (5), a/3 (1): the window is ab/0 and a/2.
            let deleted = try store.writeSync { try $0.deleteItems(forRequest: window) }
            #expect(deleted == 2)
            #expect(try allItems(store, "ranked").map(\.id) == [id("a", 3), id("a", 10), id("b", 1)])
            try store.writeSync { accessor in
                try accessor.save(Item(itemType: "ranked", id: id("a", 2), attributes: ["score": 7]))
                try accessor.insert(Item(itemType: "ranked", id: id("c", -1), attributes: ["score": 0]))
            }
            #expect(try store.read { try $0.item(ofType: "ranked", id: id("a", 2)) }?.attributes["score"] == 7)
            #expect(try store.read { try $0.item(ofType: "ranked", id: id("c", -1)) }?.attributes["score"] == 0)
        }
    }

    @Test("a partitioned table keyed by its partition column and another is written and read through its partitions")
    func partitioned() throws {
        let sql = """
            CREATE TABLE parted (id integer, region text, note text, PRIMARY KEY (id, region)) PARTITION BY LIST (region);
            CREATE TABLE parted_eu PARTITION OF parted FOR VALUES IN ('eu');
            CREATE TABLE parted_us PARTITION OF parted FOR VALUES IN ('us');
            INSERT INTO parted VALUES (1, 'eu', 'a'), (1, 'us', 'b');
            """
        try withPostgresStore(creatingWith: sql) { store, _ throws in
            let id = { (n: Int64, region: String) in ItemID.composite([.int(n), .string(region)]) }
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "parted", id: id(2, "us"), attributes: ["note": "c"]))
                try accessor.save(Item(itemType: "parted", id: id(1, "eu"), attributes: ["note": "d"]))
            }
            var window = DataStoreRequest(itemType: "parted", sortDescriptors: [.ascending("note")])
            window.limit = 2
            #expect(try store.writeSync { try $0.deleteItems(forRequest: window) } == 2)
            #expect(try allItems(store, "parted").map(\.id) == [id(1, "eu")])
            #expect(try allItems(store, "parted").first?.attributes["note"] == "d")
        }
    }

    @Test("a child's inserts, updates and deletes of composite-keyed items merge into the parent")
    func childMerge() throws {
        let sql = """
            CREATE TABLE ranked (grp text, n int, score int, PRIMARY KEY (grp, n));
            INSERT INTO ranked VALUES ('a', 1, 1), ('a', 2, 2), ('b', 1, 3);
            """
        try withPostgresStore(creatingWith: sql) { store, _ throws in
            let id = { (grp: String, n: Int64) in ItemID.composite([.string(grp), .int(n)]) }
            let child = try store.makeChildDataStore()
            try child.setup()
            defer { try? child.tearDown() }
            try child.writeSync { accessor in
                try accessor.insert(Item(itemType: "ranked", id: id("c", 1), attributes: ["score": 4]))
                try accessor.save(Item(itemType: "ranked", id: id("a", 2), attributes: ["score": 20]))
                #expect(try accessor.deleteItem(ofType: "ranked", id: id("b", 1)))
            }
            try store.merge(child)
            let items = try allItems(store, "ranked")
            #expect(items.map(\.id) == [id("a", 1), id("a", 2), id("c", 1)])
            #expect(items.map { $0.attributes["score"] } == [1, 20, 4])
        }
    }
}
