import Foundation
import Persist
import PersistTestSupport

/// Native GDBM files that record the table of an adopted SQLite type, whose items were then edited
/// through the store past what the table allows (GDBM checks no constraint).
enum EditedGDBMFixtures {
    /// `NOT NULL` columns an item lacks: `a` is gone from every item, `b` from one; `c` is still
    /// everywhere, so its `NOT NULL` holds.
    static let notNull = """
        CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT NOT NULL, b INTEGER NOT NULL, c TEXT NOT NULL);
        INSERT INTO t VALUES (1, 'p', 1, 'x'), (2, 'q', 2, 'y');
        """

    static func breakNotNull(_ accessor: DataStoreReadWriteAccessor) throws {
        try accessor.save(Item(itemType: "t", id: 1, attributes: ["b": 1, "c": "x"]))
        try accessor.save(Item(itemType: "t", id: 2, attributes: ["c": "y"]))
    }

    /// `UNIQUE` an SQL target would refuse: item 2 takes item 1's `u`, its (`x`, `y`) as other
    /// kinds of the same numbers (1.0 for 1, "2.5" for 2.5), and its `v` as the text "7" (which an
    /// INTEGER column turns into 7). The index `t_w`, the `UNIQUE` of `n` (NULL in both) and the
    /// `UNIQUE` of (`x`, `w`) still hold.
    static let unique = """
        CREATE TABLE t (id INTEGER PRIMARY KEY, u TEXT UNIQUE, x INTEGER, y REAL, v INTEGER, w TEXT, n TEXT UNIQUE,
                        UNIQUE (x, y), UNIQUE (x, w));
        CREATE UNIQUE INDEX t_v ON t (v);
        CREATE UNIQUE INDEX t_w ON t (w);
        INSERT INTO t VALUES (1, 'same', 1, 2.5, 7, 'one', NULL), (2, 'other', 2, 3.5, 8, 'two', NULL);
        """

    static func breakUnique(_ accessor: DataStoreReadWriteAccessor) throws {
        try accessor.save(Item(itemType: "t", id: 2, attributes: ["u": "same", "x": 1.0, "y": "2.5", "v": "7", "w": "two"]))
    }

    /// `sql` in `legacy.sqlite`, migrated to the native file `middle.db` in `directory`, then
    /// edited by `edit`; the file's items after.
    static func migrated(_ sql: String, in directory: TemporaryDirectory,
                         edit: (DataStoreReadWriteAccessor) throws -> Void) throws -> Set<Item> {
        let raw = try RawDatabase(directory.path("legacy.sqlite"))
        try raw.exec(sql)
        raw.close()
        let there = try Tool.run(["--from", "sqlite:legacy.sqlite", "--to", "gdbm:middle.db", "--progress", "never"],
                                 in: directory.url)
        guard there.status == 0 else { throw DataStoreError(.io, "the way into GDBM failed: \(there.stderr)") }
        let middle = StoreKind.gdbm.store(directory.path("middle.db"))
        try middle.setup()
        try middle.writeSync { try edit($0) }
        try middle.tearDown()
        return try StoreFiles.contents(.gdbm, directory.path("middle.db"))
    }
}
