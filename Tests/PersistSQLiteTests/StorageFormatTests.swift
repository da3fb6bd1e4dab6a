import Foundation
import Persist
import PersistConformance
import PersistSQLite
import Testing
import PersistTestSupport

/// The layout the "SQLite storage format" article documents, checked with plain SQL.
@Suite("SQLiteDataStore stores items in the documented layout")
struct StorageFormatTests {
    static let item = Item(itemType: "Edge", id: "e1", attributes: [
        "flag": true, "count": 42, "ratio": -0.0, "missing": .double(.nan), "name": "a\u{0}b", "data": .bytes([]),
        "when": .date(Date(timeIntervalSinceReferenceDate: 12.25)), "list": [1, "x"], "info": ["k": 1],
        "never": .date(Date(timeIntervalSinceReferenceDate: .nan)),
    ])

    @Test("created tables, columns, kinds and values are readable with plain SQL")
    func layout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("format.sqlite")
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        try store.writeSync { try $0.insert(Self.item) }
        try store.tearDown()

        let raw = try RawDatabase(path)
        #expect(try raw.rows("PRAGMA journal_mode") == [[.text("wal")]])
        // A rowid table, its key a column with a unique index of its own.
        #expect(try raw.rows("SELECT wr FROM pragma_table_list WHERE name = 'Edge'") == [[.integer(0)]])
        #expect(try raw.rows("SELECT count(*) FROM pragma_table_info('Edge') WHERE pk > 0") == [[.integer(0)]])
        #expect(try raw.rows("SELECT name, type, \"notnull\" FROM pragma_table_info('Edge') WHERE cid = 0")
            == [[.text("persist_id"), .text(""), .integer(1)]])
        #expect(try raw.rows("SELECT name, \"unique\", partial FROM pragma_index_list('Edge')")
            == [[.text("persist_key:Edge"), .integer(1), .integer(0)]])
        #expect(try raw.rows("SELECT name, coll FROM pragma_index_xinfo('persist_key:Edge') WHERE key = 1")
            == [[.text("persist_id"), .text("BINARY")]])
        #expect(try raw.rows("SELECT count(*) FROM pragma_table_info('Edge') WHERE type <> ''") == [[.integer(0)]])
        #expect(try raw.rows("SELECT column_name, kind FROM persist_columns WHERE table_name = 'Edge' ORDER BY 1") == [
            [.text("count"), .text("number")], [.text("data"), .text("bytes")], [.text("flag"), .text("bool")],
            [.text("info"), .text("object")], [.text("list"), .text("array")], [.text("missing"), .text("number")],
            [.text("name"), .text("string")], [.text("never"), .text("date")], [.text("ratio"), .text("number")],
            [.text("when"), .text("date")],
        ])
        let row = try #require(try raw.rows("""
            SELECT persist_id, flag, count, ratio, missing, length(CAST(name AS BLOB)), data, "when", list, info, never,
                   typeof(flag), typeof(count), typeof(ratio), typeof(missing), typeof(name), typeof(data), typeof("when")
            FROM Edge
            """).first)
        #expect(Array(row[0..<5]) == [.text("e1"), .integer(1), .integer(42), .real(-0.0), .text("NaN")])
        if case .real(let ratio) = row[3] { #expect(ratio.sign == .minus) }
        #expect(Array(row[5..<8]) == [.integer(3), .blob([]), .real(12.25)])
        #expect(row[8] == .blob(BinaryValueCoding.encode([1, "x"])))
        #expect(row[9] == .blob(BinaryValueCoding.encode(["k": 1])))
        #expect(row[10] == .text("NaN"))
        #expect(Array(row[11...]) == ["integer", "integer", "real", "text", "text", "blob", "real"].map(RawValue.text))
    }

    @Test("values legacy code writes into created columns are read by the column's kind")
    func legacyWritesIntoCreatedColumns() throws {
        try withFileStore { store, _ throws in
            try store.writeSync { try $0.insert(Self.item) }
            try store.withRawHandle { db in
                try RawDatabase(borrowing: db).exec("""
                    INSERT INTO Edge (persist_id, flag, count, "when", name) VALUES ('raw', 0, 7.5, 0, 'plain');
                    INSERT INTO Edge (persist_id, count) VALUES (5, 'NaN');
                    """)
            }
            #expect(try store.read { try $0.item(ofType: "Edge", id: "raw") } == Item(itemType: "Edge", id: "raw", attributes: [
                "flag": false, "count": 7.5, "when": .date(Date(timeIntervalSinceReferenceDate: 0)), "name": "plain",
            ]))
            #expect(try store.read { try $0.item(ofType: "Edge", id: 5) }?["count"] == .double(.nan))
        }
    }

    @Test("a store that reads but never writes leaves no -wal or -shm file when it closes")
    func closingWithoutWrites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("quiet.sqlite")
        for _ in 0..<2 {   // a new file, then an existing one
            let store = SQLiteDataStore(path: path, options: quietOptions())
            try store.setup()
            // The read runs on a read-only reader connection, which opens the WAL.
            #expect(try allItems(store, "Edge").isEmpty)
            try store.tearDown()
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["quiet.sqlite"])
        }
    }

    @Test("a value of the wrong storage class in a created column is corrupt, naming the item")
    func wrongStorageClassIsCorrupt() throws {
        try withFileStore { store, _ throws in
            try store.writeSync { try $0.insert(Self.item) }
            for (column, value) in [("flag", "'yes'"), ("list", "X'FF'"), ("info", "X'0800'"), ("count", "X'00'")] {
                try store.withRawHandle { db in try RawDatabase(borrowing: db).exec("UPDATE Edge SET \(column) = \(value)") }
                let error = expectError(.corrupt) { try store.read { try $0.item(ofType: "Edge", id: "e1") } }
                #expect(error?.items == [Self.item.reference])
                #expect(error?.message.contains("\"\(column)\"") == true)
                try store.withRawHandle { db in try RawDatabase(borrowing: db).exec("UPDATE Edge SET \(column) = NULL") }
            }
            #expect(try store.read { try $0.item(ofType: "Edge", id: "e1") }?["name"] == "a\u{0}b")
        }
    }
}
