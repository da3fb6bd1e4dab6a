import Foundation
import PersistTestSupport
import Testing

/// Generated columns are not recreated, so neither is an index or a UNIQUE constraint that lists
/// one: the copy never builds it over a column it lacks (which SQLite would take as the string
/// literal of its name), and the notes name it.
@Suite("persist-migrate leaves out the indexes of generated columns, and says so")
struct GeneratedColumnIndexTests {
    /// A table with a STORED and a VIRTUAL generated column, each indexed, and a UNIQUE constraint
    /// over one of them and a plain column.
    static let schema = """
        CREATE TABLE g (id INTEGER PRIMARY KEY, price REAL, qty INTEGER,
          total REAL GENERATED ALWAYS AS (price * qty) STORED, label TEXT AS ('#' || id) VIRTUAL, z INTEGER,
          UNIQUE (z, total));
        CREATE INDEX g_total ON g(total);
        CREATE UNIQUE INDEX g_label ON g(label);
        CREATE INDEX g_z ON g(z);
        INSERT INTO g (id, price, qty, z) VALUES (1, 1.5, 2, 1), (2, 2.0, 3, 1);
        """

    /// The note of a copy of ``schema``.
    static let note = "note: the copy of \"g\" does not carry the generated \"total\", \"label\", "
        + "the index on generated columns \"g_label\", the index on generated columns \"g_total\", "
        + "the index on generated columns \"sqlite_autoindex_g_1\""

    @Test("SQLite → SQLite: the rows are copied, the index on a plain column is kept, the others are notes")
    func sqliteToSQLite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let raw = try RawDatabase(directory.path("app.sqlite"))
        try raw.exec(Self.schema)
        raw.close()
        let run = try Tool.run(["app.sqlite", "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(Self.note), "\(run.stdout)")
        let copy = try RawDatabase(directory.path("copy.sqlite"))
        defer { copy.close() }
        #expect(try copy.rows("SELECT name FROM pragma_index_list('g') ORDER BY name") == [[.text("g_z")]])
        #expect(try copy.rows("SELECT id, price, qty, z FROM g ORDER BY id")
                == [[.integer(1), .real(1.5), .integer(2), .integer(1)], [.integer(2), .real(2.0), .integer(3), .integer(1)]])
    }
}
