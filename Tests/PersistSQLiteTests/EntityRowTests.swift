import Foundation
import Persist
import PersistConformance
import PersistSQLite
import PersistTestSupport
import Testing

/// Typed writes bind entity rows straight to statements; the rows they leave must be the rows the
/// item path leaves.
@Suite("Typed entities write the same rows as items")
struct EntityRowTests {
    @Test("the typed path and the item path leave identical columns, column kinds and rows")
    func identicalRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("entities.sqlite")
        let store = SQLiteDataStore(path: path, options: quietOptions())
        try store.setup()
        try EntityDifferentialTests.run(on: store, seed: DifferentialTests.seed)
        try store.tearDown()

        let raw = try RawDatabase(path)
        let columns = "SELECT name FROM pragma_table_info(?1) ORDER BY cid"
        let kinds = "SELECT column_name, kind FROM persist_columns WHERE table_name = ?1 ORDER BY column_name"
        let typed = TypedTwin.itemType
        let items = ItemTwin.itemType
        #expect(try raw.rows(columns, [.text(typed)]) == raw.rows(columns, [.text(items)]))
        #expect(try raw.rows(kinds, [.text(typed)]) == raw.rows(kinds, [.text(items)]))
        let typedRows = try raw.rows("SELECT * FROM \"\(typed)\" ORDER BY persist_id")
        #expect(typedRows.count >= EntityDifferentialTests.sampleCount / 2)
        #expect(typedRows == (try raw.rows("SELECT * FROM \"\(items)\" ORDER BY persist_id")))
    }

    /// A model whose columns SQLite may hold in a storage class other than their kind's usual one.
    struct Gauge: DataStoreEntity {
        static let itemType = "Gauge"
        var id: Int
        var level: Double
        var count: Int
        var taken: Date
        var label: String
        var flag: Bool
    }

    @Test("typed reads of values held in another storage class (the NaN marker, integer dates, real counts) equal init(item:)")
    func otherStorageClasses() throws {
        try withFileStore { store, path in
            let taken = Date(timeIntervalSinceReferenceDate: 86_400)
            try store.writeSync { accessor in
                for id in 1...3 {
                    try accessor.insert(Gauge(
                        id: id, level: id == 1 ? .nan : Double(id) / 4, count: id, taken: taken, label: "g\u{0}\(id)",
                        flag: id == 2))
                }
            }
            // Whole dates and counts as a legacy program might leave them: INTEGER in the date
            // column, REAL in the number column.
            let raw = try RawDatabase(path)
            try raw.exec(#"UPDATE "Gauge" SET "taken" = 86400, "count" = 5.0 WHERE "persist_id" = 2"#)
            raw.close()
            #expect(try RawDatabase(path).rows(#"SELECT typeof("level"), typeof("taken"), typeof("count") FROM "Gauge" ORDER BY "persist_id""#)
                == [[.text("text"), .text("real"), .text("integer")], [.text("real"), .text("integer"), .text("real")],
                    [.text("real"), .text("real"), .text("integer")]])

            let typed = try store.read { try $0.getAll(Gauge.self) }
            let general = try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "Gauge")) }.map(Gauge.init(item:))
            #expect(typed.count == 3 && general.count == 3)
            for (got, expected) in zip(typed, general) {
                #expect(got.id == expected.id && got.count == expected.count && got.taken == expected.taken)
                #expect(got.level.bitPattern == expected.level.bitPattern && got.label == expected.label && got.flag == expected.flag)
            }
            #expect(typed[0].level.isNaN && typed[1].count == 5 && typed[1].taken == taken && typed[2].label == "g\u{0}3")
            let single = try store.read { try $0.getById(Gauge.self, id: 2) }
            #expect(single?.count == 5 && single?.taken == taken && single?.flag == true)
        }
    }

    /// Text and bytes larger than the binding arena's first allocation (4 KiB), for its growth.
    struct Page: DataStoreEntity, Equatable {
        static let itemType = "Page"
        var id: Int
        var title: String
        var body: String
        var data: Data
    }

    @Test("typed writes of text and bytes bound in place read back whole, and later item writes to the same statements bind their own values")
    func inPlaceBinds() throws {
        try withFileStore { store, _ in
            let long = String(repeating: "é𝄞x\u{0}", count: 1_500)
            let pages = [
                Page(id: 1, title: "", body: long, data: Data((0..<10_000).map { UInt8($0 % 251) })),
                Page(id: 2, title: long + "2", body: "short", data: Data()),
                Page(id: 3, title: "three", body: long, data: Data([0])),
            ]
            try store.writeSync { accessor in
                for page in pages { try accessor.insert(page) }
            }
            var changed = pages
            changed[0].body = "replaced"
            changed[1].data = Data(repeating: 7, count: 9_000)
            try store.writeSync { accessor in
                try accessor.save(changed[0])
                try accessor.update(changed[1])
                try accessor.insert(Item(itemType: Page.itemType, id: 4, attributes: [
                    "title": "four", "body": .string(long), "data": .bytes([4]),
                ]))
            }
            let read = try store.read { accessor in try accessor.getAll(Page.self) }
            #expect(read.count == 4)
            #expect(Array(read.prefix(3)) == changed)
            #expect(read.last == Page(id: 4, title: "four", body: long, data: Data([4])))
        }
    }
}
