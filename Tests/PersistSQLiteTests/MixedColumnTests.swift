import Foundation
import Logging
import Persist
import PersistConformance
import PersistSQLite
import Testing
import PersistTestSupport

@Suite("Created columns widen to a tagged, lossless column when they meet another kind")
struct MixedColumnTests {
    func note(_ id: Int64, _ value: Value) -> Item {
        Item(itemType: "Note", id: .int(id), attributes: ["v": value])
    }

    @Test("a typed column meets every other kind: each value keeps its kind, tagged, and the widening is logged once")
    func widens() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store.sqlite")
        let date = Date(timeIntervalSinceReferenceDate: 12.5)
        let mixed: [Item] = [note(1, 5), note(2, 2.5), note(3, "five"), note(4, .bytes([5])), note(5, "NaN"),
                             note(6, true), note(7, .double(.nan)), note(8, .date(date)), note(9, [1, "a"]),
                             note(10, ["k": .null])]
        let lines = Locked<[String]>([])
        let handler = RecordingLogHandler(lines: lines)
        let options = SQLiteDataStore.Options(logger: Logger(label: "persist.sqlite.mixed") { _ in handler })
        do {
            let store = SQLiteDataStore(path: path, options: options)
            try store.setup()
            defer { try? store.tearDown() }
            try store.writeSync { accessor in try accessor.insert(mixed[0]) }
            // A reader before the widening has cached the typed schema; it must not keep using it.
            #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) } == [mixed[0]])
            for item in mixed.dropFirst() { try store.writeSync { accessor in try accessor.insert(item) } }
            #expect(try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) } == mixed)
            var request = DataStoreRequest(itemType: "Note")
            request.filter = .attribute("v") > 3
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [1])
            request.filter = .attribute("v") < 3
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [2, 7])
        }
        let widenings = lines.withLock { $0 }.filter { $0.contains("hold values of every kind") }
        #expect(widenings.count == 1, "\(widenings)")
        let raw = try RawDatabase(path)
        #expect(try raw.rows(#"SELECT typeof("v"), "v" FROM "Note" ORDER BY "persist_id""#) == [
            [.text("integer"), .integer(5)], [.text("real"), .real(2.5)], [.text("text"), .text("five")],
            [.text("blob"), .blob([0x06, 5])], [.text("text"), .text("NaN")], [.text("blob"), .blob([0x01, 1])],
            [.text("blob"), .blob([0x02])], [.text("blob"), .blob(Self.dateBlob(12.5))],
            [.text("blob"), .blob([0x07] + BinaryValueCoding.encode([1, "a"]))],
            [.text("blob"), .blob([0x08] + BinaryValueCoding.encode(["k": .null]))],
        ])
        #expect(try raw.rows(#"SELECT kind FROM "persist_columns" WHERE table_name = 'Note' AND column_name = 'v'"#)
            == [[.text("mixed")]])
        raw.close()
        let reopened = SQLiteDataStore(path: path, options: quietOptions())
        try reopened.setup()
        defer { try? reopened.tearDown() }
        #expect(try reopened.read { try $0.items(forRequest: DataStoreRequest(itemType: "Note")) } == mixed)
    }

    static func dateBlob(_ seconds: Double) -> [UInt8] {
        let bits = seconds.bitPattern
        let key = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        return [0x04] + (0..<8).map { UInt8(truncatingIfNeeded: key >> (56 - 8 * UInt64($0))) }
            + (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }
    }

    @Test("a column of numbers holding NaN, and columns of booleans, dates and nested values, widen on another kind")
    func everyTypedKindWidens() throws {
        try withFileStore { store, _ in
            let firsts: [Value] = [.double(.nan), true, .date(Date(timeIntervalSinceReferenceDate: -3)), [1], ["a": 2], .bytes([])]
            let seconds: [Value] = ["text", 1, "soon", "x", .bytes([1]), false]
            for (index, (first, second)) in zip(firsts, seconds).enumerated() {
                let type = "T\(index)"
                let items = [Item(itemType: type, id: 1, attributes: ["v": first]),
                             Item(itemType: type, id: 2, attributes: ["v": second])]
                try store.writeSync { accessor in try accessor.insert(items[0]) }
                try store.writeSync { accessor in try accessor.insert(items[1]) }
                #expect(try allItems(store, type) == items)
            }
        }
    }

    @Test("a file whose column an earlier version widened (numbers, strings and bytes, no recorded kind) upgrades on a new kind")
    func upgradesEarlierWidening() throws {
        // The layout of the current format: a created table, its key index, and a column widened by
        // deleting its row from persist_columns, so that each value keeps its storage class.
        let sql = """
            CREATE TABLE "Note" ("persist_id" NOT NULL, "v", "w");
            CREATE UNIQUE INDEX "persist_key:Note" ON "Note" ("persist_id");
            CREATE TABLE persist_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, kind TEXT NOT NULL,
                PRIMARY KEY (table_name, column_name)) WITHOUT ROWID;
            INSERT INTO persist_columns VALUES ('Note', 'w', 'number');
            INSERT INTO "Note" VALUES (1, 5, 1), (2, 'five', 2), (3, x'0005', 3), (4, 2.5, NULL);
            """
        try withFileStore(creatingWith: sql) { store, path in
            let before = [note(1, 5), note(2, "five"), note(3, .bytes([0, 5])), note(4, 2.5)]
            let expectedBefore = zip(before, [1, 2, 3, nil] as [Value?]).map { item, w in
                var copy = item
                copy["w"] = w
                return copy
            }
            #expect(try allItems(store, "Note") == expectedBefore)
            // Numbers, strings and bytes keep fitting as they are.
            try store.writeSync { accessor in try accessor.insert(note(5, .bytes([9]))) }
            let raw = try RawDatabase(path)
            #expect(try raw.rows(#"SELECT "v" FROM "Note" WHERE "persist_id" = 5"#) == [[.blob([9])]])
            // A date cannot be kept that way: the column becomes mixed, its blobs tagged bytes.
            try store.writeSync { accessor in try accessor.insert(note(6, .date(Date(timeIntervalSinceReferenceDate: 1)))) }
            #expect(try raw.rows(#"SELECT "v" FROM "Note" WHERE "persist_id" IN (3, 5) ORDER BY 1"#)
                == [[.blob([6, 0, 5])], [.blob([6, 9])]])
            #expect(try raw.rows(#"SELECT kind FROM persist_columns WHERE column_name = 'v'"#) == [[.text("mixed")]])
            raw.close()
            var expected = expectedBefore + [note(5, .bytes([9])), note(6, .date(Date(timeIntervalSinceReferenceDate: 1)))]
            #expect(try allItems(store, "Note") == expected)
            try store.writeSync { accessor in try accessor.save(Item(itemType: "Note", id: 1, attributes: ["w": "one"])) }
            expected[0] = Item(itemType: "Note", id: 1, attributes: ["w": "one"])
            #expect(try allItems(store, "Note") == expected)
        }
    }

    @Test("a column of a legacy table keeps its declared type and refuses what it cannot give back")
    func legacyColumnsStay() throws {
        try withFileStore(creatingWith: "CREATE TABLE t (id INTEGER PRIMARY KEY, v); INSERT INTO t VALUES (1, 2);") { store, _ in
            expectError(.typeMismatch) {
                try store.writeSync { try $0.insert(Item(itemType: "t", id: 2, attributes: ["v": true])) }
            }
            try store.writeSync { try $0.insert(Item(itemType: "t", id: 3, attributes: ["v": "text"])) }
            #expect(try allItems(store, "t").map { $0["v"] } == [2, "text"])
        }
    }

    @Test("widening a column under a legacy UNIQUE index rewrites its rows without meeting a value not rewritten yet")
    func wideningUnderLegacyUniqueIndex() throws {
        try withFileStore { store, _ throws in
            // Row 1's tagged bytes are row 2's bytes as they are stored before the widening.
            try seed(store, [Item(itemType: "Blob", id: 1, attributes: ["data": .bytes([0x41])]),
                             Item(itemType: "Blob", id: 2, attributes: ["data": .bytes([0x06, 0x41])])])
            try store.withRawHandle { db in
                try RawDatabase(borrowing: db).exec("CREATE UNIQUE INDEX legacy_data ON \"Blob\" (data)")
            }
            try seed(store, [Item(itemType: "Blob", id: 3, attributes: ["data": "text"])])
            #expect(try allItems(store, "Blob").map { $0["data"] } == [.bytes([0x41]), .bytes([0x06, 0x41]), "text"])
            expectError(.uniqueViolation) {
                try seed(store, [Item(itemType: "Blob", id: 4, attributes: ["data": .bytes([0x41])])])
            }
        }
    }
}
