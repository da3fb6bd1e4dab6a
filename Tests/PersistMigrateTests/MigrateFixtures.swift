import CSQLite
import Foundation
import Logging
import Persist
import PersistGDBM
import PersistSQLite
import PersistTestSupport

/// Builds source and target files for the tool's tests, and reads them back.
enum MigrateFixtures {
    static var quiet: Logger {
        var logger = Logger(label: "persist.migrate.tests")
        logger.logLevel = .critical
        return logger
    }

    /// A varied set of items of two types, every value kind included.
    static func items(count: Int = 40) -> [Item] {
        let restaurants: [Item] = (0..<count).map { index in
            let attributes: [String: Value] = [
                "name": .string("Restaurant \(index) é\u{0}x"),
                "rating": .int(Int64(index % 5)),
                "open": .bool(index % 2 == 0),
                "score": .double(index == 3 ? -0.0 : Double(index) / 3),
                "updated": .date(Date(timeIntervalSinceReferenceDate: Double(index))),
                "logo": .bytes([UInt8(index % 256), 0, 255]),
                "tags": .array([.string("a"), .int(Int64(index))]),
                "address": .object(["city": .string("Leeds")]),
            ]
            return Item(itemType: "Restaurant", id: .int(Int64(index)), attributes: attributes)
        }
        let reviews: [Item] = (0..<count / 4).map { index in
            let stars: Value = .double(Double(index % 5) + 0.5)
            return Item(itemType: "Review", id: .string("review-\(index)"), attributes: ["stars": stars])
        }
        return restaurants + reviews
    }

    static func gdbm(_ path: String, holding items: [Item]) throws {
        let store = GDBMDataStore(path: path, options: .init(logger: quiet))
        try store.setup()
        try seedStore(store, items)
        try store.tearDown()
    }

    static func sqlite(_ path: String, holding items: [Item]) throws {
        let store = SQLiteDataStore(path: path, options: .init(logger: quiet))
        try store.setup()
        try seedStore(store, items)
        try store.tearDown()
    }

    private static func seedStore(_ store: any DataStore, _ items: [Item]) throws {
        try store.writeSync { accessor in
            for item in items { try accessor.insert(item) }
        }
    }

    /// Every item of a store, opened read-only.
    static func contents(kind: String, _ path: String, raw: Bool = false) throws -> Set<Item> {
        let store: any DataStore = kind == "gdbm"
            ? GDBMDataStore(path: path, options: .init(readOnly: true, createIfMissing: false,
                                                       layout: raw ? .raw(itemType: "Entry") : .native, logger: quiet))
            : SQLiteDataStore(path: path, options: .init(readOnly: true, createIfMissing: false, logger: quiet))
        try store.setup()
        defer { try? store.tearDown() }
        return try store.read { accessor in
            Set(try accessor.itemTypes().flatMap { try accessor.items(forRequest: DataStoreRequest(itemType: $0)) })
        }
    }

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

/// Runs the built `persist-migrate`.
enum Tool {
    static func run(_ arguments: [String], in directory: URL) throws -> ProductRunner.Output {
        try ProductRunner.run("persist-migrate", arguments, in: directory)
    }
}
