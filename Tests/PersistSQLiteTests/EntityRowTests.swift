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
}
