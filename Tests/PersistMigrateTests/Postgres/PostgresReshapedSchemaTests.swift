import Foundation
import Persist
import PersistTestSupport
import Testing

/// Reshape rules keep the adopted schema they reshape from SQLite to PostgreSQL and back, checked
/// with plain SQL on both sides.
@Suite("persist-migrate keeps reshaped schemas through PostgreSQL", .serialized)
struct PostgresReshapedSchemaTests {
    @Test("SQLite → PostgreSQL with rename-type, rename-attribute and drop-attribute, and back to SQLite with another rename")
    func reshapedRoundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let raw = try RawDatabase(directory.path("legacy.sqlite"))
        try raw.exec(LegacyNotes.sqlite)
        raw.close()
        let there = try Tool.run(["legacy.sqlite", pg.url, "--progress", "never", "--rename-type", "note=memo",
                                  "--rename-attribute", "note.titel=title", "--drop-attribute", "note.flags",
                                  "--drop-attribute", "note.owner"], in: directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        for note in LegacyNotes.droppedNotes { #expect(there.stdout.contains("note: " + note), "\(there.stdout)") }
        #expect(try pg.sql("""
            SELECT column_name, data_type, is_nullable FROM information_schema.columns
            WHERE table_schema = '\(pg.schema)' AND table_name = 'memo' ORDER BY ordinal_position
            """) == "id|bigint|NO\ntitle|text|NO\nbody|text|YES\nteam|text|NO")
        #expect(try pg.sql("SELECT indexname || ' ' || substring(indexdef from 'USING btree (.*)$') FROM pg_indexes "
                           + "WHERE schemaname = '\(pg.schema)' AND tablename = 'memo' ORDER BY 1")
            == "memo_pkey (id)\nmemo_title_key (title)\nnote_body (body)\nnote_titel (title, body)")
        #expect(try pg.sql("SELECT count(*) FROM pg_indexes WHERE schemaname = '\(pg.schema)' AND tablename = 'memo' "
                           + "AND indexdef LIKE 'CREATE UNIQUE INDEX%'") == "3")

        let back = try Tool.run([pg.url, "back.sqlite", "--progress", "never", "--rename-attribute", "memo.body=text"],
                                in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        let copy = try RawDatabase(directory.path("back.sqlite"))
        defer { copy.close() }
        #expect(try copy.columns(of: "memo") == ["id INTEGER PRIMARY KEY", "title TEXT NOT NULL", "text TEXT", "team TEXT NOT NULL"])
        #expect(try copy.indexes(of: "memo")
            == ["INDEX note_titel (title, text)", "UNIQUE (title)", "UNIQUE INDEX note_body (text)"])
        #expect(try copy.rows("SELECT id, title, text, team FROM memo ORDER BY id")
            == [[.integer(1), .text("hello"), .text("first"), .text("red")], [.integer(2), .text("world"), .null, .text("red")]])
    }
}
