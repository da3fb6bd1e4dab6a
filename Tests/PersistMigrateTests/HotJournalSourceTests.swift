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
        try HotJournal.make(at: directory.path("crashed.sqlite"))
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
