import Foundation

/// An SQLite database with a hot journal: the state a writer killed in the middle of a transaction
/// leaves, its journal beside the file.
public enum HotJournal {
    /// Writes at `path` (and `path-journal`) a table `t` of 2,000 rows whose transaction updating
    /// every row stopped half-way, its pages spilled into the file after the journal was written.
    public static func make(at path: String) throws {
        let scratch = path + ".writer"
        let raw = try RawDatabase(scratch)
        defer {
            raw.close()
            for suffix in ["", "-journal"] { try? FileManager.default.removeItem(atPath: scratch + suffix) }
        }
        try raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);"
                     + "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
                     + "INSERT INTO t SELECT i, printf('%0100d', i) FROM n;")
        // A one-page cache spills the update into the file mid-transaction, its journal written
        // first: a copy of both taken then is what a writer killed at that moment leaves.
        try raw.exec("PRAGMA cache_size = 1; BEGIN; UPDATE t SET v = 'changed';")
        for suffix in ["", "-journal"] {
            try FileManager.default.copyItem(atPath: scratch + suffix, toPath: path + suffix)
        }
        try raw.exec("ROLLBACK;")
    }
}
