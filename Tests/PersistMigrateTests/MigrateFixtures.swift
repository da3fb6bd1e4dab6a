import CSQLite
import Foundation
import PersistTestSupport

/// Foreign databases for the tool's tests, written and read with plain SQL.
enum MigrateFixtures {
    /// A database written by another program: several tables, integer, text and rowid keys,
    /// columns mixing storage classes, blobs, nulls and awkward names.
    static let foreignSQL = #"""
        CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, age STRING, photo BLOB, score REAL);
        INSERT INTO people VALUES (1, 'Ada', 36, x'00ff10', 9.5);
        INSERT INTO people VALUES (2, 'Bob', 'forty', NULL, 7);
        INSERT INTO people VALUES (3, NULL, 4.25, x'', -0.5);
        INSERT INTO people VALUES (9007199254740993, 'Big', '0012', x'01', NULL);
        CREATE TABLE tags (code TEXT PRIMARY KEY, label, weight);
        INSERT INTO tags VALUES ('a', 1, 'x');
        INSERT INTO tags VALUES ('b', 'two', 2.5);
        INSERT INTO tags VALUES ('c', x'0102', NULL);
        INSERT INTO tags VALUES ('ü', NULL, -9223372036854775808);
        CREATE TABLE events (at, what);
        INSERT INTO events VALUES (1700000000, 'start');
        INSERT INTO events VALUES ('late', x'00');
        INSERT INTO events VALUES (NULL, NULL);
        CREATE TABLE "odd ""name""" ("key col" INTEGER PRIMARY KEY, "select" TEXT);
        INSERT INTO "odd ""name""" VALUES (7, 'quoted');
        """#

    static func foreignSQLite(_ path: String) throws {
        let raw = try RawDatabase(path)
        try raw.exec(foreignSQL)
        raw.close()
    }

    /// For each table and column: the key, `typeof` and value of every row, ordered by key.
    static func foreignRows(_ path: String, keys: [String: String]) throws -> [String: [[RawValue]]] {
        let raw = try RawDatabase(path, flags: SQLITE_OPEN_READONLY)
        defer { raw.close() }
        var result: [String: [[RawValue]]] = [:]
        let columns: [String: [String]] = [
            "people": ["name", "age", "photo", "score"], "tags": ["label", "weight"], "events": ["at", "what"],
            "odd \"name\"": ["select"],
        ]
        for (table, names) in columns {
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            guard let key = keys[table] else { continue }
            for name in names {
                let column = "\"" + name + "\""
                result["\(table).\(name)"] = try raw.rows(
                    "SELECT \(key), typeof(\(column)), \(column) FROM \(quoted) ORDER BY \(key)")
            }
        }
        return result
    }
}

extension MigrateFixtures {
    /// Leaves a GDBM file as a writer that died mid-update does, with bytes past the end its header
    /// records: GDBM then reports that it needs recovery.
    static func breakCleanClose(_ path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0xAB, count: 100))
        try handle.close()
    }
}

/// Runs the built `persist-migrate`.
enum Tool {
    static func run(_ arguments: [String], in directory: URL) throws -> ProductRunner.Output {
        try ProductRunner.run("persist-migrate", arguments, in: directory)
    }
}
