import Foundation
import Persist
import PersistTestSupport
import Testing

/// SQLite → PostgreSQL → SQLite keeps the schema and the rows, `typeof()` included, checked with
/// plain SQL on both sides.
@Suite("persist-migrate keeps adopted schemas through PostgreSQL", .serialized)
struct PostgresSchemaTests {
    /// SwiftPM's manifest cache and a richer legacy table with every storage class, a UNIQUE
    /// column, a UNIQUE constraint over two columns, a secondary index, and values that do not fit
    /// their declared types.
    static let legacy = """
        CREATE TABLE MANIFEST_CACHE(key STRING PRIMARY KEY NOT NULL, value BLOB NOT NULL);
        INSERT INTO MANIFEST_CACHE VALUES ('k1', x'0102'), ('k2', x'');
        CREATE TABLE orders(id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, price REAL, qty INTEGER, amount NUMERIC,
                            note TEXT, blob BLOB, UNIQUE (qty, note));
        CREATE INDEX orders_qty ON orders(qty, price);
        INSERT INTO orders VALUES (1, 'a', 1.5, 3, 10, 'x', x'00'), (2, 'b', 1e308, 4, 2.5, 'y', x'ff'),
                                  (3, 'c', NULL, NULL, NULL, NULL, NULL), (4, 'd', -0.0, -9223372036854775808, 7, 'é', x'');
        CREATE TABLE settings(name TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
        INSERT INTO settings VALUES ('theme', 'dark'), ('lang', 'fr');
        """

    static let tableInfo = "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?) ORDER BY cid"
    static let typed = "SELECT id, code, price, qty, amount, note, blob, typeof(price), typeof(qty), typeof(amount), "
        + "typeof(note), typeof(blob) FROM orders ORDER BY id"

    @Test("SQLite → PostgreSQL → SQLite: PRAGMA table_info, index_list and every row with typeof() come back")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let raw = try RawDatabase(directory.path("legacy.sqlite"))
        try raw.exec(Self.legacy)
        raw.close()
        let there = try Tool.run(["legacy.sqlite", pg.url, "--progress", "never"], in: directory.url)
        #expect(there.status == 0, "\(there.stderr)")
        // NUMERIC holding integers and reals: PostgreSQL's numeric would give them back as decimals,
        // so the column keeps each value's kind in the tagged encoding, and says so.
        #expect(there.stdout.contains("fallback: orders.amount declared numeric is now bytea, tagged with each value's kind"),
                "\(there.stdout)")
        #expect(there.stdout.components(separatedBy: "fallback:").count == 2, "\(there.stdout)")

        // PostgreSQL's own view: declared types after the mapping, NOT NULL, UNIQUE and the index.
        #expect(try pg.sql("""
            SELECT column_name, data_type, is_nullable FROM information_schema.columns
            WHERE table_schema = '\(pg.schema)' AND table_name = 'orders' ORDER BY ordinal_position
            """) == """
            id|bigint|NO
            code|text|NO
            price|double precision|YES
            qty|bigint|YES
            amount|bytea|YES
            note|text|YES
            blob|bytea|YES
            """)
        #expect(try pg.sql("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = '\(pg.schema)' "
                           + "AND tablename = 'orders' AND indexname = 'orders_qty'")
            .contains("ON \(pg.schema).orders USING btree (qty, price)"))
        #expect(try pg.sql("SELECT count(*) FROM pg_indexes WHERE schemaname = '\(pg.schema)' AND tablename = 'orders' "
                           + "AND indexdef LIKE 'CREATE UNIQUE INDEX%(code)'") == "1")
        #expect(try pg.sql("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = '\(pg.schema).orders'::regclass "
                           + "AND contype = 'u' AND array_length(conkey, 1) = 2") == "UNIQUE (qty, note)")
        #expect(try pg.sql("SELECT data_type FROM information_schema.columns WHERE table_schema = '\(pg.schema)' "
                           + "AND table_name = 'MANIFEST_CACHE' ORDER BY ordinal_position") == "text\nbytea")

        let back = try Tool.run([pg.url, "back.sqlite", "--progress", "never"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        let original = try RawDatabase(directory.path("legacy.sqlite"))
        let copy = try RawDatabase(directory.path("back.sqlite"))
        defer { original.close(); copy.close() }
        for table in ["MANIFEST_CACHE", "orders", "settings"] {
            #expect(try copy.rows(Self.tableInfo, [.text(table)]) == original.rows(Self.tableInfo, [.text(table)]), "\(table)")
        }
        let tables = "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND name NOT LIKE 'sqlite_%' "
            + "AND name NOT LIKE 'persist_%' ORDER BY name"
        #expect(try copy.rows(tables) == original.rows(tables))
        #expect(try copy.rows("SELECT name, value FROM settings ORDER BY name")
                == original.rows("SELECT name, value FROM settings ORDER BY name"))
        let indexes = "SELECT name, \"unique\" FROM pragma_index_list('orders') WHERE origin = 'c'"
        #expect(try copy.rows(indexes) == original.rows(indexes))
        let indexColumns = "SELECT name FROM pragma_index_info('orders_qty') ORDER BY seqno"
        #expect(try copy.rows(indexColumns) == original.rows(indexColumns))
        let constraints = "SELECT name, \"unique\" FROM pragma_index_list('orders') WHERE origin = 'u' ORDER BY name"
        #expect(try copy.rows(constraints) == original.rows(constraints))
        #expect(try copy.rows(constraints).count == 2)
        let pairColumns = "SELECT name FROM pragma_index_info('sqlite_autoindex_orders_2') ORDER BY seqno"
        #expect(try copy.rows(pairColumns) == [[.text("qty")], [.text("note")]])
        #expect(try copy.rows(Self.typed) == original.rows(Self.typed))
        let manifest = "SELECT key, typeof(key), value, typeof(value) FROM MANIFEST_CACHE ORDER BY key"
        #expect(try copy.rows(manifest) == original.rows(manifest))
    }

    @Test("values that do not fit their declared types fall back losslessly, reported in the summary and --json")
    func fallbacks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let raw = try RawDatabase(directory.path("dynamic.sqlite"))
        try raw.exec("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, r REAL, s TEXT, m NUMERIC);
            CREATE INDEX t_n ON t(n);
            INSERT INTO t VALUES (1, 5, 1.5, 'x', 1), (2, 'text', 2.5, 'a' || char(0) || 'b', 'not a number'), (3, x'01', 'r', 4, 2);
            """)
        raw.close()
        let output = try Tool.run(["dynamic.sqlite", pg.url, "--progress", "never", "--json"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        for column in ["\"column\":\"n\"", "\"column\":\"m\"", "\"column\":\"r\""] {
            #expect(output.stdout.contains(column), "\(column): \(output.stdout)")
        }
        #expect(output.stdout.contains("bytea, tagged with each value's kind"), "\(output.stdout)")
        let back = try Tool.run([pg.url, "back.sqlite", "--progress", "never"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        let original = try RawDatabase(directory.path("dynamic.sqlite"))
        let copy = try RawDatabase(directory.path("back.sqlite"))
        defer { original.close(); copy.close() }
        let rows = "SELECT id, n, typeof(n), r, typeof(r), s, typeof(s), m, typeof(m) FROM t ORDER BY id"
        #expect(try copy.rows(rows) == original.rows(rows))
        // The columns that fell back in PostgreSQL are declared as they were again: SQLite keeps these values.
        #expect(try copy.rows(Self.tableInfo, [.text("t")]) == original.rows(Self.tableInfo, [.text("t")]))
        #expect(!back.stdout.contains("fallback"), "\(back.stdout)")
    }

    @Test("NOT NULL columns and keys fall back after thousands of rows, staying NOT NULL, and every row comes back")
    func lateFallbacks() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let raw = try RawDatabase(directory.path("late.sqlite"))
        // More rows than one rewrite batch before each misfit, so that widening goes through batches.
        try raw.exec("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, r REAL NOT NULL, s TEXT NOT NULL);
            WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 2500)
            INSERT INTO t SELECT i, i * 7, i / 4.0, 'row ' || i FROM k;
            INSERT INTO t VALUES (2501, 'text', x'00ff', 12), (2502, 3, 'NaN text', x'01');
            CREATE TABLE kv (key STRING PRIMARY KEY NOT NULL, value BLOB NOT NULL);
            WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 2500)
            INSERT INTO kv SELECT 'k' || i, randomblob(4) FROM k;
            INSERT INTO kv VALUES ('9001', x'09');
            """)
        raw.close()
        let output = try Tool.run(["late.sqlite", pg.url, "--progress", "never", "--json"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        for column in ["\"column\":\"n\"", "\"column\":\"r\"", "\"column\":\"s\"", "\"column\":\"key\""] {
            #expect(output.stdout.contains(column), "\(column): \(output.stdout)")
        }
        #expect(try pg.sql("SELECT string_agg(column_name || ' ' || is_nullable, ', ' ORDER BY ordinal_position) "
                           + "FROM information_schema.columns WHERE table_schema = '\(pg.schema)' AND table_name = 't'")
                == "id NO, n NO, r NO, s NO")

        let back = try Tool.run([pg.url, "back.sqlite", "--progress", "never"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        let original = try RawDatabase(directory.path("late.sqlite"))
        let copy = try RawDatabase(directory.path("back.sqlite"))
        defer { original.close(); copy.close() }
        for table in ["t", "kv"] {
            #expect(try copy.rows(Self.tableInfo, [.text(table)]) == original.rows(Self.tableInfo, [.text(table)]))
        }
        let rows = "SELECT id, n, typeof(n), r, typeof(r), s, typeof(s) FROM t ORDER BY id"
        #expect(try copy.rows(rows) == original.rows(rows))
        let pairs = "SELECT key, typeof(key), value FROM kv ORDER BY key"
        #expect(try copy.rows(pairs) == original.rows(pairs))
    }

    @Test("a key its declared type would change falls back losslessly, and the schema and keys come back")
    func keyFallback() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let raw = try RawDatabase(directory.path("cache.sqlite"))
        // SwiftPM's manifest cache declares its key STRING: NUMERIC affinity, so a key that looks
        // like a number is stored as one, and PostgreSQL's text key cannot hold it.
        try raw.exec("""
            CREATE TABLE MANIFEST_CACHE(key STRING PRIMARY KEY NOT NULL, value BLOB NOT NULL);
            INSERT INTO MANIFEST_CACHE VALUES ('k1', x'0102'), ('123', x'03'), ('k2', x'');
            """)
        raw.close()
        let output = try Tool.run(["cache.sqlite", pg.url, "--progress", "never", "--json"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("\"column\":\"key\""), "\(output.stdout)")
        #expect(try pg.sql("SELECT data_type FROM information_schema.columns WHERE table_schema = '\(pg.schema)' "
                           + "AND table_name = 'MANIFEST_CACHE' ORDER BY ordinal_position") == "bytea\nbytea")

        let back = try Tool.run([pg.url, "back.sqlite", "--progress", "never"], in: directory.url)
        #expect(back.status == 0, "\(back.stderr)")
        let original = try RawDatabase(directory.path("cache.sqlite"))
        let copy = try RawDatabase(directory.path("back.sqlite"))
        defer { original.close(); copy.close() }
        #expect(try copy.rows(Self.tableInfo, [.text("MANIFEST_CACHE")]) == original.rows(Self.tableInfo, [.text("MANIFEST_CACHE")]))
        let rows = "SELECT key, typeof(key), value FROM MANIFEST_CACHE ORDER BY key"
        #expect(try copy.rows(rows) == original.rows(rows))
        #expect(try copy.rows(rows).first == [.integer(123), .text("integer"), .blob([3])])
    }

    @Test("index names PostgreSQL cannot hold as they are get a shortened name each; column names it cannot hold are refused")
    func longNames() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let long = String(repeating: "i", count: 70)
        let raw = try RawDatabase(directory.path("legacy.sqlite"))
        try raw.exec("""
            CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b TEXT);
            CREATE INDEX \(long)_a ON t(a);
            CREATE INDEX \(long)_b ON t(b);
            INSERT INTO t VALUES (1, 'x', 'y');
            """)
        raw.close()
        let output = try Tool.run(["legacy.sqlite", pg.url, "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let indexes = try pg.sql("SELECT indexdef FROM pg_indexes WHERE schemaname = '\(pg.schema)' AND tablename = 't' "
                                 + "AND indexdef NOT LIKE '%UNIQUE%' ORDER BY indexdef")
        #expect(indexes.split(separator: "\n").count == 2, "\(indexes)")
        #expect(indexes.contains("(a)") && indexes.contains("(b)"), "\(indexes)")

        let wide = try RawDatabase(directory.path("wide.sqlite"))
        try wide.exec("CREATE TABLE w (id INTEGER PRIMARY KEY, \(long) TEXT); INSERT INTO w VALUES (1, 'v');")
        wide.close()
        let refused = try Tool.run(["wide.sqlite", pg.url, "--progress", "never"], in: directory.url)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("longer than 63 bytes"), "\(refused.stderr)")
        #expect(try pg.sql("SELECT count(*) FROM pg_tables WHERE schemaname = '\(pg.schema)' AND tablename = 'w'") == "0")

        // A column named like one of PostgreSQL's system columns cannot be recreated either.
        let hidden = try RawDatabase(directory.path("hidden.sqlite"))
        try hidden.exec("CREATE TABLE h (id INTEGER PRIMARY KEY, xmin TEXT); INSERT INTO h VALUES (1, 'v');")
        hidden.close()
        let system = try Tool.run(["hidden.sqlite", pg.url, "--progress", "never"], in: directory.url)
        #expect(system.status == 65, "\(system.stderr)")
        #expect(system.stderr.contains("\"xmin\" has the name of one of PostgreSQL's system columns"), "\(system.stderr)")
        #expect(try pg.sql("SELECT count(*) FROM pg_tables WHERE schemaname = '\(pg.schema)' AND tablename = 'h'") == "0")
    }

    @Test("a UNIQUE index with INCLUDE columns comes back unique over its key columns alone")
    func includedColumns() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        _ = try pg.sql("""
            CREATE SCHEMA \(pg.schema);
            CREATE TABLE \(pg.schema).u (id integer PRIMARY KEY, email text, code text);
            CREATE UNIQUE INDEX u_email ON \(pg.schema).u (email) INCLUDE (code);
            INSERT INTO \(pg.schema).u VALUES (1, 'a', 'x'), (2, 'b', 'x');
            """)
        let output = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(output.status == 0, "\(output.stderr)")
        let copy = try RawDatabase(directory.path("copy.sqlite"))
        defer { copy.close() }
        #expect(try copy.rows("SELECT name FROM pragma_index_info('u_email') ORDER BY seqno") == [[.text("email")]])
        #expect(throws: (any Error).self) { try copy.exec("INSERT INTO u VALUES (3, 'a', 'z')") }
    }

    @Test("a domain column comes back as its base type; an enum is recreated in the target's schema; a composite type of the source's schema is named with it, and unsupported (65) where missing")
    func userDefinedTypes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pg = try PostgresScratch()
        defer { pg.drop() }
        let other = try PostgresScratch()
        defer { other.drop() }
        _ = try pg.sql("""
            CREATE SCHEMA \(pg.schema);
            CREATE DOMAIN \(pg.schema).posint AS integer CHECK (VALUE > 0);
            CREATE TYPE \(pg.schema).mood AS ENUM ('ok', 'sad');
            CREATE TYPE \(pg.schema).pair AS (a integer, b integer);
            CREATE TABLE \(pg.schema).d (id integer PRIMARY KEY, p \(pg.schema).posint, m \(pg.schema).mood,
                                         q \(pg.schema).pair);
            INSERT INTO \(pg.schema).d VALUES (1, 5, 'sad', NULL);
            """)
        let copied = try Tool.run([pg.url, other.url, "--progress", "never"], in: directory.url)
        #expect(copied.status == 0, "\(copied.stderr)")
        let types = try other.sql("""
            SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod) FROM pg_catalog.pg_attribute a
            WHERE a.attrelid = '\(other.schema).d'::regclass AND a.attnum > 0 ORDER BY a.attnum
            """)
        #expect(types == "id|integer\np|integer\nm|\(other.schema).mood\nq|\(pg.schema).pair", "\(types)")
        let sqlite = try Tool.run([pg.url, "copy.sqlite", "--progress", "never"], in: directory.url)
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        let copy = try RawDatabase(directory.path("copy.sqlite"))
        #expect(try copy.rows("SELECT type FROM pragma_table_info('d') WHERE name = 'p'") == [[.text("int4")]])
        copy.close()

        // Another database has no such type.
        let database = "pgtool_db_" + pg.schema.suffix(12)
        _ = try pg.sql("CREATE DATABASE \(database)")
        defer { _ = try? pg.sql("DROP DATABASE IF EXISTS \(database)") }
        guard let slash = pg.base.range(of: "/", options: .backwards) else {
            Issue.record("the server URL \(pg.base) names no database")
            return
        }
        let databaseURL = String(pg.base[..<slash.upperBound]) + database
        let elsewhere = databaseURL + "?schema=copy"
        let refused = try Tool.run([pg.url, elsewhere, "--progress", "never"], in: directory.url)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("\"q\" (\(pg.schema).pair) is not in the target database"), "\(refused.stderr)")
        let schemas = try ProductRunner.run("/usr/bin/psql", ["-X", "-q", "-A", "-t", "-d", databaseURL,
                                                             "-c", "SELECT count(*) FROM pg_namespace WHERE nspname = 'copy'"])
        #expect(schemas.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(schemas.stdout)\(schemas.stderr)")
    }
}
