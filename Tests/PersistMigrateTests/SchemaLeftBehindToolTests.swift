import Foundation
import PersistTestSupport
import Testing

@Suite("persist-migrate names what a copy of an SQLite source does not carry")
struct SchemaLeftBehindToolTests {
    /// A database as a Django or Rails application makes it.
    private static let appSchema = """
        CREATE TABLE auth_user (id INTEGER PRIMARY KEY AUTOINCREMENT, username VARCHAR(150) NOT NULL UNIQUE,
          is_active BOOL NOT NULL DEFAULT 1, age INTEGER CHECK (age >= 0), nick TEXT COLLATE NOCASE);
        CREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES auth_user(id) ON DELETE CASCADE,
          title varchar(200) NOT NULL, created_at datetime NOT NULL, published boolean NOT NULL);
        CREATE INDEX posts_created_desc ON posts(created_at DESC);
        CREATE INDEX posts_published ON posts(user_id) WHERE published = 1;
        CREATE INDEX posts_lower_title ON posts(lower(title));
        CREATE INDEX posts_title_nocase ON posts(title COLLATE NOCASE);
        CREATE INDEX posts_user ON posts(user_id);
        CREATE VIEW active_users AS SELECT id, username FROM auth_user WHERE is_active = 1;
        CREATE TRIGGER posts_touch AFTER UPDATE ON posts BEGIN SELECT 1; END;
        CREATE TABLE plain (id INTEGER PRIMARY KEY, checked_at TEXT, "default" TEXT, "check (x)" TEXT, [collate] TEXT,
          note TEXT -- CHECK (note <> '') AUTOINCREMENT
          /* COLLATE NOCASE */);
        INSERT INTO auth_user (username, age) VALUES ('alice', 30);
        INSERT INTO posts VALUES (1, 1, 'First', '2024-01-02 03:04:05', 1);
        INSERT INTO plain (id, checked_at) VALUES (1, 'x');
        """

    private static let expected = [
        "the source's table \"active_users\" was not copied: a view, whose definition a copy does not carry",
        "the copy of \"auth_user\" does not carry the DEFAULT of \"is_active\", its CHECK constraints, "
            + "its column collations, AUTOINCREMENT (and its sqlite_sequence row) (see",
        // Its FOREIGN KEY to auth_user's key is a relation, which is not a note.
        "the copy of \"posts\" does not carry DESC in the index \"posts_created_desc\", the index on expressions \"posts_lower_title\", "
            + "the partial index \"posts_published\", the collation of the index \"posts_title_nocase\", "
            + "the trigger \"posts_touch\" (see",
    ]

    @Test("defaults, CHECK, foreign keys, AUTOINCREMENT, partial, expression and DESC indexes, triggers and views are notes, in text and --json", arguments: ["copy.sqlite", "copy.gdbm"])
    func leftBehindIsReported(target: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let raw = try RawDatabase(directory.path("app.sqlite"))
        try raw.exec(Self.appSchema)
        raw.close()
        let text = try Tool.run(["app.sqlite", target, "--progress", "never"], in: directory.url)
        #expect(text.status == 0, "\(text.stderr)")
        for note in Self.expected {
            #expect(text.stdout.contains("note: " + note), "\(text.stdout)")
        }
        #expect(!text.stdout.contains("\"plain\""), "a table with nothing left behind gets no note: \(text.stdout)")
        let json = try Tool.run(["app.sqlite", "json-" + target, "--json"], in: directory.url)
        #expect(json.status == 0, "\(json.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let notes = summary?["notes"] as? [String] ?? []
        for note in Self.expected {
            #expect(notes.contains { $0.hasPrefix(note) }, "\(json.stdout)")
        }
    }

    @Test("a table the target already has keeps its own schema, so its copy gets no such note")
    func existingTableGetsNoNote() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let schema = """
            CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT UNIQUE);
            CREATE TABLE comments (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users (id), body TEXT,
                                   user_name TEXT REFERENCES users (name));
            """
        let source = try RawDatabase(directory.path("app.sqlite"))
        try source.exec(schema + "INSERT INTO users VALUES (1, 'a'); INSERT INTO comments VALUES (1, 1, 'x', 'a');")
        source.close()
        let target = try RawDatabase(directory.path("target.sqlite"))
        try target.exec(schema)
        target.close()
        let existing = try Tool.run(["app.sqlite", "target.sqlite", "--progress", "never"], in: directory.url)
        #expect(existing.status == 0, "\(existing.stderr)")
        #expect(!existing.stdout.contains("does not carry"), "\(existing.stdout)")
        let fresh = try Tool.run(["app.sqlite", "new.sqlite", "--progress", "never"], in: directory.url)
        // A foreign key to a column that is not the key is no relation: a note.
        #expect(fresh.stdout.contains("note: the copy of \"comments\" does not carry the FOREIGN KEY (\"user_name\")"),
                "\(fresh.stdout)")
    }
}

@Suite("persist-migrate names the ON CONFLICT clauses a copy of an SQLite table does not carry")
struct ConflictClauseNoteTests {
    @Test("UNIQUE … ON CONFLICT REPLACE and NOT NULL ON CONFLICT IGNORE are a note, in text and --json", arguments: ["copy.sqlite", "copy.gdbm"])
    func conflictClauseIsReported(target: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let raw = try RawDatabase(directory.path("app.sqlite"))
        try raw.exec("""
            CREATE TABLE contacts (id INTEGER PRIMARY KEY, phone TEXT UNIQUE ON CONFLICT REPLACE,
              nick TEXT NOT NULL ON CONFLICT IGNORE);
            CREATE TABLE plain (id INTEGER PRIMARY KEY, "on conflict" TEXT, note TEXT -- ON CONFLICT REPLACE
              );
            INSERT INTO contacts VALUES (1, '123', 'n');
            INSERT INTO plain VALUES (1, 'x', 'y');
            """)
        raw.close()
        let note = "note: the copy of \"contacts\" does not carry its ON CONFLICT clauses (see"
        let text = try Tool.run(["app.sqlite", target, "--progress", "never"], in: directory.url)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains(note), "\(text.stdout)")
        #expect(!text.stdout.contains("\"plain\""), "a quoted name or a comment is no clause: \(text.stdout)")
        let json = try Tool.run(["app.sqlite", "json-" + target, "--json"], in: directory.url)
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let notes = summary?["notes"] as? [String] ?? []
        #expect(notes.contains { $0.hasPrefix("the copy of \"contacts\" does not carry its ON CONFLICT clauses") }, "\(json.stdout)")
    }
}
