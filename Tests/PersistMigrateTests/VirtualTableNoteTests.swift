import Foundation
import PersistTestSupport
import Testing

@Suite("persist-migrate names the virtual tables of an SQLite source it does not copy")
struct VirtualTableNoteTests {
    @Test("an FTS5 table's rows are not copied, and the summary and --json say so")
    func ftsTableIsNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let raw = try RawDatabase(directory.path("search.sqlite"))
        try raw.exec("""
            CREATE VIRTUAL TABLE docs USING fts5(title, body);
            INSERT INTO docs VALUES ('hello', 'world');
            CREATE TABLE t (id INTEGER PRIMARY KEY);
            INSERT INTO t VALUES (1);
            """)
        raw.close()
        let note = "the source's table \"docs\" was not copied: a virtual table, whose rows its module keeps"
        let text = try Tool.run(["search.sqlite", "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("note: " + note), "\(text.stdout)")
        #expect(!text.stdout.contains("docs_"), "its shadow tables are not named one by one: \(text.stdout)")
        let json = try Tool.run(["search.sqlite", "copy.gdbm", "--json"], in: directory.url)
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((summary?["notes"] as? [String] ?? []).contains { $0.hasPrefix(note) }, "\(json.stdout)")
    }
}
