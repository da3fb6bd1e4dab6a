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
