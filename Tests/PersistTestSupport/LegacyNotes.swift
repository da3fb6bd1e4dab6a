/// A legacy `note` table for tests of migrations that reshape an adopted schema: its key in second
/// place, an indexed UNIQUE column (`titel`), NOT NULL columns, a UNIQUE constraint over two
/// columns (whose two rows differ only in `owner`, so a constraint narrowed to `team` would refuse
/// the second), and the indexes `note_titel (titel, body)`, `note_flags (flags)` and, in SQLite,
/// `UNIQUE note_body (body)`.
public enum LegacyNotes {
    /// The table as SQLite declares it, with two rows.
    public static let sqlite = """
        CREATE TABLE note (flags INTEGER NOT NULL, id INTEGER PRIMARY KEY, titel TEXT NOT NULL UNIQUE, body TEXT,
                           team TEXT NOT NULL, owner TEXT, UNIQUE (team, owner));
        CREATE INDEX note_titel ON note (titel, body);
        CREATE INDEX note_flags ON note (flags);
        CREATE UNIQUE INDEX note_body ON note (body);
        INSERT INTO note VALUES (0, 1, 'hello', 'first', 'red', 'ann'), (1, 2, 'world', NULL, 'red', 'bob');
        """

    /// The table as PostgreSQL declares it (without `note_body`), with the same two rows.
    public static let postgres = """
        CREATE TABLE note (flags bigint NOT NULL, id bigint PRIMARY KEY, titel text NOT NULL UNIQUE, body text,
                           team text NOT NULL, owner text, UNIQUE (team, owner));
        CREATE INDEX note_titel ON note (titel, body);
        CREATE INDEX note_flags ON note (flags);
        INSERT INTO note VALUES (0, 1, 'hello', 'first', 'red', 'ann'), (1, 2, 'world', NULL, 'red', 'bob');
        """

    /// The notes a migration reports when it drops `flags` and `owner` of `note`.
    public static let droppedNotes = [
        "the index \"note_flags\" of \"note\" is left out: it lists the dropped column \"flags\"",
        "the constraint UNIQUE (\"team\", \"owner\") of \"note\" is left out: it lists the dropped column \"owner\"",
    ]
}
