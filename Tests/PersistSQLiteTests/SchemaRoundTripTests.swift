import Foundation
import Persist
import PersistSQLite
import Testing
import PersistTestSupport

@Suite("Migrations recreate adopted SQLite tables with their schema, and never lose a value")
struct SchemaRoundTripTests {
    /// Copies every item of the SQLite database at `source` into a new one at `target`.
    func migrate(_ source: String, _ target: String, options: MigrationOptions = MigrationOptions()) throws -> MigrationReport {
        let from = SQLiteDataStore(path: source, options: quietOptions { $0.readOnly = true })
        let to = SQLiteDataStore(path: target, options: quietOptions())
        try from.setup()
        try to.setup()
        defer {
            try? from.tearDown()
            try? to.tearDown()
        }
        return try Migration(source: from, target: to, options: options).run()
    }

    func schema(_ path: String, _ table: String) throws -> [[RawValue]] {
        let raw = try RawDatabase(path)
        defer { raw.close() }
        var rows = try raw.rows("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1)", [.text(table)])
        rows += try raw.rows("SELECT name, \"unique\", origin, partial FROM pragma_index_list(?1) ORDER BY name", [.text(table)])
        for index in try raw.rows("SELECT name FROM pragma_index_list(?1) ORDER BY name", [.text(table)]) {
            guard case .text(let name) = index[0] else { continue }
            rows += try raw.rows("SELECT seqno, name FROM pragma_index_info(?1)", [.text(name)])
        }
        rows += try raw.rows("SELECT wr FROM pragma_table_list WHERE name = ?1", [.text(table)])
        return rows
    }

    @Test("SwiftPM's MANIFEST_CACHE comes back identical, and its own query works")
    func manifestCache() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.path("cache.db")
        let raw = try RawDatabase(source)
        try raw.exec("CREATE TABLE MANIFEST_CACHE(key STRING PRIMARY KEY NOT NULL, value BLOB NOT NULL);")
        try raw.exec("INSERT INTO MANIFEST_CACHE VALUES ('swift-log-1.6.0', x'00FF10'), ('123', x'01'), ('a', 'text value');")
        raw.close()
        let target = directory.path("copy.db")
        let report = try migrate(source, target)
        #expect(report.written == 3 && report.verified && report.fallbacks.isEmpty)
        #expect(try schema(target, "MANIFEST_CACHE") == schema(source, "MANIFEST_CACHE"))
        let copy = try RawDatabase(target)
        defer { copy.close() }
        #expect(try copy.rows("SELECT sql FROM sqlite_schema WHERE name = 'MANIFEST_CACHE'")
            == [[.text("CREATE TABLE \"MANIFEST_CACHE\" (\"key\" STRING PRIMARY KEY NOT NULL, \"value\" BLOB NOT NULL)")]])
        #expect(try copy.rows("SELECT value FROM MANIFEST_CACHE WHERE key = ?", [.text("swift-log-1.6.0")]) == [[.blob([0, 255, 16])]])
        let original = try RawDatabase(source)
        defer { original.close() }
        let all = "SELECT typeof(key), key, typeof(value), value FROM MANIFEST_CACHE ORDER BY key"
        #expect(try copy.rows(all) == original.rows(all))
    }

    @Test("every storage class in declared columns, UNIQUE of one column or several, NOT NULL and secondary indexes survive, typeof() included")
    func everyStorageClass() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.path("legacy.db")
        let raw = try RawDatabase(source)
        try raw.exec("""
            CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER, score REAL, born NUMERIC,
                                 photo BLOB, email VARCHAR(80) UNIQUE, note);
            CREATE INDEX people_by_age ON people (age, name);
            CREATE UNIQUE INDEX people_by_photo ON people (photo);
            INSERT INTO people VALUES (1, 'Ann', 34, 1.5, 20010101, x'00FF', 'ann@example.com', 7);
            INSERT INTO people VALUES (2, 'Bob', 'unknown', 1e308, 'soon', 'not bytes', NULL, 2.5);
            INSERT INTO people VALUES (3, 'Cy', NULL, -0.0, 1.25, NULL, 'cy@example.com', x'41');
            INSERT INTO people VALUES (4, 'D' || char(0) || 'x', -9223372036854775808, 5e-324, '12abc', x'', 'd', 'NUL' || char(0));
            CREATE TABLE log (k TEXT PRIMARY KEY, v INTEGER) WITHOUT ROWID;
            INSERT INTO log VALUES ('start', 1), ('stop', 'two');
            CREATE TABLE pairs (id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c, UNIQUE (a, b), UNIQUE (c, b, a));
            INSERT INTO pairs VALUES (1, 'x', 1, 0), (2, 'x', 2, 0), (3, 'y', 1, 0);
            """)
        raw.close()
        let target = directory.path("copy.db")
        let report = try migrate(source, target)
        #expect(report.written == 9 && report.verified)
        #expect(report.fallbacks.isEmpty, "\(report.fallbacks)")
        let copy = try RawDatabase(target)
        let original = try RawDatabase(source)
        defer {
            copy.close()
            original.close()
        }
        for table in ["people", "log", "pairs"] {
            #expect(try schema(target, table) == schema(source, table))
            let all = "SELECT * FROM \(table) ORDER BY 1"
            let types = "SELECT " + (try original.rows("SELECT name FROM pragma_table_info('\(table)')")).map {
                guard case .text(let name) = $0[0] else { return "NULL" }
                return "typeof(\"\(name)\")"
            }.joined(separator: ", ") + " FROM \(table) ORDER BY 1"
            #expect(try copy.rows(all) == original.rows(all))
            #expect(try copy.rows(types) == original.rows(types))
        }
        #expect(try copy.rows("SELECT count(*) FROM sqlite_schema WHERE name = 'persist_columns'") == [[.integer(0)]])
    }

    /// Fills table `t` as `created` declares it with `rows` (an `INSERT` of its values), then
    /// declares it `declared` in place, as a program changing its schema leaves it: the values keep
    /// the storage classes the first declaration gave them. Migrates the database to a new one and
    /// returns the report and the copy, which the caller closes.
    func migrateRedeclared(_ created: String, _ rows: String, as declared: String,
                           in directory: TemporaryDirectory) throws -> (MigrationReport, RawDatabase) {
        let source = directory.path("dynamic.db")
        let raw = try RawDatabase(source)
        try raw.exec("""
            CREATE TABLE t (\(created));
            INSERT INTO t VALUES \(rows);
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = 'CREATE TABLE t (\(declared))' WHERE name = 't';
            PRAGMA writable_schema = OFF;
            """)
        raw.close()
        let target = directory.path("copy.db")
        let report = try migrate(source, target)
        return (report, try RawDatabase(target))
    }

    @Test("a value its declared type would change makes the column fall back, losslessly, and the report says so")
    func fallback() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Values a column of no type kept, then the column declared INTEGER: text that looks like a
        // number, and a real.
        let (report, copy) = try migrateRedeclared("id INTEGER PRIMARY KEY, n, keep INTEGER NOT NULL",
                                                   "(1, '0012', 1), (2, 5.0, 2), (3, 7, 3)",
                                                   as: "id INTEGER PRIMARY KEY, n INTEGER, keep INTEGER NOT NULL",
                                                   in: directory)
        defer { copy.close() }
        #expect(report.written == 3 && report.verified)
        #expect(report.fallbacks.map(\.column) == ["n"])
        #expect(report.fallbacks.first?.declaredType == "INTEGER")
        #expect(try copy.rows("SELECT typeof(n), n FROM t ORDER BY id")
            == [[.text("text"), .text("0012")], [.text("real"), .real(5.0)], [.text("integer"), .integer(7)]])
        #expect(try copy.rows("SELECT name, type, \"notnull\" FROM pragma_table_info('t')")
            == [[.text("id"), .text("INTEGER"), .integer(0)], [.text("n"), .text(""), .integer(0)],
                [.text("keep"), .text("INTEGER"), .integer(1)]])
    }

    @Test("rows after the first that their declared columns would change still fall back, whatever their position")
    func laterMisfitsFallBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Rows that fit first (copied without the read-back check), then values INTEGER and REAL
        // affinity would convert: text that looks like a number, an integral real.
        let (report, copy) = try migrateRedeclared(
            "id INTEGER PRIMARY KEY, n, r",
            "(1, 1, 1.5), (2, 2, 2.5), (3, 3, 3.0), (4, '0012', 4.5), (5, 5.0, '007'), (6, 6, 6.5)",
            as: "id INTEGER PRIMARY KEY, n INTEGER, r REAL", in: directory)
        defer { copy.close() }
        #expect(report.written == 6 && report.verified)
        #expect(report.fallbacks.map(\.column) == ["n", "r"])
        #expect(try copy.rows("SELECT typeof(n), typeof(r) FROM t ORDER BY id")
            == [[.text("integer"), .text("real")], [.text("integer"), .text("real")], [.text("integer"), .text("real")],
                [.text("text"), .text("real")], [.text("real"), .text("text")], [.text("integer"), .text("real")]])
        #expect(try copy.rows("SELECT n, r FROM t WHERE id IN (4, 5) ORDER BY id")
            == [[.text("0012"), .real(4.5)], [.real(5.0), .text("007")]])
    }

    @Test("a key its declared type would change makes the key fall back, losslessly, and the report says so")
    func keyFallback() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Keys a key of no type kept, then the key declared INT: text that looks like a number.
        let (report, copy) = try migrateRedeclared("k PRIMARY KEY, v TEXT", "(1, 'a'), ('0012', 'b'), ('x', 'c')",
                                                   as: "k INT PRIMARY KEY, v TEXT", in: directory)
        defer { copy.close() }
        #expect(report.written == 3 && report.verified)
        #expect(report.fallbacks.map(\.column) == ["k"])
        #expect(report.fallbacks.first?.declaredType == "INT")
        #expect(try copy.rows("SELECT k, typeof(k), v FROM t ORDER BY v")
            == [[.integer(1), .text("integer"), .text("a")], [.text("0012"), .text("text"), .text("b")],
                [.text("x"), .text("text"), .text("c")]])
        #expect(try copy.rows("SELECT name, type, pk FROM pragma_table_info('t')")
            == [[.text("k"), .text(""), .integer(1)], [.text("v"), .text("TEXT"), .integer(0)]])
    }

    @Test("a PRIMARY KEY of several columns, and of a REAL column (a table keyed by its rowid, as UNIQUE), still refuses duplicates")
    func rowidTablePrimaryKeys() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.path("keys.db")
        let raw = try RawDatabase(source)
        try raw.exec("""
            CREATE TABLE member (user_id INTEGER NOT NULL, group_id INTEGER NOT NULL, role TEXT, PRIMARY KEY (user_id, group_id));
            INSERT INTO member VALUES (1, 1, 'a'), (1, 2, 'b');
            CREATE TABLE r (k REAL PRIMARY KEY, v);
            INSERT INTO r VALUES (1.5, 'x');
            """)
        raw.close()
        let target = directory.path("copy.db")
        let report = try migrate(source, target)
        #expect(report.written == 3 && report.verified)
        let copy = try RawDatabase(target)
        defer { copy.close() }
        #expect(throws: (any Error).self) { try copy.exec("INSERT INTO member VALUES (1, 1, 'duplicate')") }
        #expect(throws: (any Error).self) { try copy.exec("INSERT INTO r VALUES (1.5, 'duplicate')") }
        #expect(try copy.rows("SELECT user_id, group_id, role FROM member ORDER BY group_id")
            == [[.integer(1), .integer(1), .text("a")], [.integer(1), .integer(2), .text("b")]])
    }

    @Test("a reshape recreates the tables of the types no rule names as they were")
    func reshapeKeepsOtherSchemas() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.path("cache.db")
        let raw = try RawDatabase(source)
        try raw.exec("""
            CREATE TABLE MANIFEST_CACHE(key STRING PRIMARY KEY NOT NULL, value BLOB NOT NULL);
            INSERT INTO MANIFEST_CACHE VALUES ('a', x'01');
            CREATE TABLE note (id INTEGER PRIMARY KEY, titel TEXT);
            INSERT INTO note VALUES (1, 'hello');
            """)
        raw.close()
        let target = directory.path("copy.db")
        var options = MigrationOptions()
        options.reshape = MigrationReshape([.renameAttribute("titel", ofType: "note", to: "title")])
        let report = try migrate(source, target, options: options)
        #expect(report.written == 2 && report.verified)
        #expect(try schema(target, "MANIFEST_CACHE") == schema(source, "MANIFEST_CACHE"))
        let copy = try RawDatabase(target)
        defer { copy.close() }
        #expect(try copy.rows("SELECT value FROM MANIFEST_CACHE WHERE key = 'a'") == [[.blob([1])]])
        #expect(try copy.rows("SELECT title FROM note") == [[.text("hello")]])
    }

    @Test("an empty table is recreated too, with its constraints and indexes, atomic or in batches")
    func emptyTables() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.path("empty.db")
        let raw = try RawDatabase(source)
        try raw.exec("""
            CREATE TABLE settings (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE INDEX settings_name ON settings (name);
            CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT);
            INSERT INTO note VALUES (1, 'kept');
            """)
        raw.close()
        for atomic in [true, false] {
            let target = directory.path("copy-\(atomic).db")
            var options = MigrationOptions()
            options.atomic = atomic
            let report = try migrate(source, target, options: options)
            #expect(report.written == 1)
            #expect(try schema(target, "settings") == schema(source, "settings"), "atomic: \(atomic)")
        }
    }

    @Test("values in a column with an empty name, which no item carries, fail the migration before anything is written")
    func unnamedColumn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.path("unnamed.db")
        let raw = try RawDatabase(source)
        try raw.exec("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, "" TEXT, x TEXT);
            INSERT INTO t VALUES (1, 'only here', 'v');
            CREATE TABLE u (id INTEGER PRIMARY KEY, "" TEXT);
            INSERT INTO u VALUES (1, NULL);
            CREATE TABLE k ("" TEXT PRIMARY KEY, v TEXT);
            INSERT INTO k VALUES ('key', 'v');
            """)
        raw.close()
        let target = directory.path("copy.db")
        let error = try #require(throws: DataStoreError.self) { try migrate(source, target) }
        #expect(error.code == .unsupported)
        #expect(error.message.contains("\"t\".\"\" (an empty name)") && error.message.contains("nothing was written"), "\(error.message)")
        let untouched = try RawDatabase(target)
        #expect(try untouched.rows("SELECT name FROM sqlite_schema WHERE name IN ('t', 'u')").isEmpty)
        untouched.close()

        // A column with an empty name that holds no value loses nothing: it is recreated as it was.
        var options = MigrationOptions()
        options.itemTypes = ["u", "k"]
        let report = try migrate(source, target, options: options)
        // A key column with an empty name holds the identifiers: nothing of it is lost.
        #expect(report.written == 2 && report.verified)
        #expect(try schema(target, "u") == schema(source, "u"))
    }
}
