import Foundation
import PersistTestSupport
import Testing

/// An SQLite source with a hot journal (a writer stopped in the middle of a transaction) cannot be
/// read by the read-only connection the tool opens: the hint says why and how to roll it back,
/// instead of sending the user to check that the file is a database.
@Suite("persist-migrate on an SQLite source with a hot journal")
struct HotJournalSourceTests {
    @Test("66, the hint names the hot journal and how to roll it back, and neither file changes")
    func hotJournal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("live.sqlite")
        let raw = try RawDatabase(path)
        try raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);"
                     + "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
                     + "INSERT INTO t SELECT i, printf('%0100d', i) FROM n;")
        // A small cache spills the update into the file mid-transaction, its journal written first:
        // a copy of both taken then is what a writer killed at that moment leaves.
        try raw.exec("PRAGMA cache_size = 1; BEGIN; UPDATE t SET v = 'changed';")
        for name in ["crashed.sqlite", "crashed.sqlite-journal"] {
            try FileManager.default.copyItem(atPath: path + name.dropFirst("crashed.sqlite".count),
                                             toPath: directory.path(name))
        }
        try raw.exec("ROLLBACK;")
        raw.close()
        let before = ["crashed.sqlite", "crashed.sqlite-journal"].map { fileBytes(directory.path($0)) }

        let output = try Tool.run(["crashed.sqlite", "new.gdbm", "--progress", "never"], in: directory.url)
        #expect(output.status == 66, "stderr: \(output.stderr)")
        #expect(output.stderr.contains("crashed.sqlite has a hot journal, crashed.sqlite-journal"), "\(output.stderr)")
        #expect(output.stderr.contains("sqlite3 crashed.sqlite"), "\(output.stderr)")
        #expect(!output.stderr.contains("is a readable SQLite database"), "\(output.stderr)")
        #expect(["crashed.sqlite", "crashed.sqlite-journal"].map { fileBytes(directory.path($0)) } == before)
        #expect(!FileManager.default.fileExists(atPath: directory.path("new.gdbm")))
    }
}
