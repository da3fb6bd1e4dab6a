import Foundation
import Persist
import PersistConformance
import PersistSQLite
import Testing
import PersistTestSupport

/// The same random requests on the SQLite store and on ``InMemoryDataStore`` must give identical
/// answers, for created (typed) tables and for legacy tables mixing storage classes, aggregates of
/// a random attribute over each request included.
@Suite("SQLiteDataStore answers random requests exactly like InMemoryDataStore")
struct SQLiteDifferentialTests {
    static let requestCount = 1000

    /// Runs `requestCount` random requests on both stores and records the first differences.
    static func compare(_ sqlite: SQLiteDataStore, _ memory: InMemoryDataStore, seed: UInt64) throws {
        var random = RandomData(seed: seed)
        var attributes = SeededGenerator(seed: seed)
        var mismatches = 0
        for number in 0..<requestCount {
            let request = random.request(itemCount: 60)
            func answer(_ store: any DataStore) throws -> ([Item], Int, Item?) {
                try store.read { accessor in
                    (try accessor.items(forRequest: request), try accessor.countItems(forRequest: request),
                     try accessor.firstItem(forRequest: request))
                }
            }
            let attribute = ["i", "d", "s", "b", "t", "x", "n", "o"][Int.random(in: 0..<8, using: &attributes)]
            if let difference = try StoreAggregates.difference(attribute, over: request, in: sqlite, from: memory) {
                mismatches += 1
                if mismatches <= 3 { Issue.record("request #\(number) (seed \(seed)): \(difference)") }
            }
            let (items, count, first) = try answer(sqlite)
            let (expectedItems, expectedCount, expectedFirst) = try answer(memory)
            if items != expectedItems || count != expectedCount || first != expectedFirst {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("""
                        request #\(number) (seed \(seed)): \(request.itemType) filter \(request.filter.map { "\($0)" } ?? "none") \
                        sort \(request.sortDescriptors.map { "\($0.key) \($0.ascending ? "asc" : "desc")" }) \
                        offset \(request.offset) limit \(request.limit.map(String.init) ?? "none")
                          in memory \(expectedCount): \(expectedItems.map(\.id))
                          sqlite    \(count): \(items.map(\.id))
                        """)
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(requestCount) requests differ (seed \(seed))")
    }

    @Test("random data written through the store")
    func createdTables() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var random = RandomData(seed: 77)
        let items = random.items(perType: 60)
        let sqlite = SQLiteDataStore(path: directory.path("typed.sqlite"), options: quietOptions())
        let memory = InMemoryDataStore()
        for store in [sqlite, memory] as [any DataStore] {
            try store.setup()
            try store.writeSync { accessor in for item in items { try accessor.insert(item) } }
        }
        defer { try? sqlite.tearDown() }
        try Self.compare(sqlite, memory, seed: 1_234)
    }

    /// Two layouts of legacy tables named like ``RandomData``'s types and attributes, with declared
    /// types of every affinity and collations other than BINARY.
    struct LegacyLayout: Sendable {
        let name: String
        let sql: String
        /// The key of Alpha's row `index`.
        let keys: @Sendable (Int) -> RawValue
    }

    static let legacyLayouts: [LegacyLayout] = [
        LegacyLayout(name: "untyped and INTEGER PRIMARY KEY keys", sql: """
            CREATE TABLE Alpha (k PRIMARY KEY, i INTEGER, d REAL, s TEXT COLLATE NOCASE, b, t STRING, x BLOB,
                n NUMERIC, o ANY);
            CREATE TABLE Beta (id INTEGER PRIMARY KEY, i, d, s TEXT, b INT, t, x, n REAL, o TEXT COLLATE RTRIM);
            """, keys: { index in
                switch index % 3 {
                case 0: .integer(Int64(index * 7 % 101) - 50)
                case 1: .text(["k", "K", "é", "a\u{0}"][index % 4] + String(index))
                default: .blob([UInt8(index % 256), 0])
                }
            }),
        LegacyLayout(name: "NOCASE text keys in a WITHOUT ROWID table and bare rowids", sql: """
            CREATE TABLE Alpha (k TEXT PRIMARY KEY COLLATE NOCASE, i, d, s, b, t, x, n, o) WITHOUT ROWID;
            CREATE TABLE Beta (i, d, s, b, t, x, n, o);
            """, keys: { index in .text(["k", "K", "é", "É"][index % 4] + String(index)) }),
    ]

    static let legacyPool: [RawValue] = [
        .null, .null, .integer(-3), .integer(-1), .integer(0), .integer(1), .integer(2), .integer(3),
        .integer(.min), .integer(.max), .integer(9_007_199_254_740_993), .real(-2.5), .real(-0.0), .real(1.0),
        .real(2.5), .real(1e300), .real(0.1), .real(.infinity), .real(-.infinity), .real(9_007_199_254_740_992),
        .real(-9_223_372_036_854_775_808), .text(""), .text("a"), .text("A"), .text("ab"), .text("b"), .text("ab c"),
        .text("\u{e9}"), .text("e\u{301}"), .text("a\u{0}b"), .text("a\u{0}"), .text("𝄞"), .text("Zebra"),
        .text("zebra"), .text("10"), .text("9"), .text(" 3 "), .text("2.5"), .text("a "), .blob([]), .blob([0]),
        .blob([0, 1]), .blob([1]), .blob([255]), .blob([0, 0]), .blob([97]),
    ]

    @Test("legacy tables mixing storage classes", arguments: 0..<2)
    func legacyTables(layout: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("legacy.db")
        let raw = try RawDatabase(path)
        try raw.exec(Self.legacyLayouts[layout].sql)
        var generator = SeededGenerator(seed: UInt64(100 + layout))
        for table in ["Alpha", "Beta"] {
            for index in 0..<60 {
                let values = (0..<8).map { _ in Self.legacyPool.randomElement(using: &generator) ?? .null }
                if table == "Alpha" {
                    let key = Self.legacyLayouts[layout].keys(index)
                    _ = try raw.rows("INSERT INTO Alpha VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [key] + values)
                } else {
                    _ = try raw.rows("INSERT INTO Beta (i, d, s, b, t, x, n, o) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", values)
                }
            }
        }
        raw.close()

        let sqlite = SQLiteDataStore(path: path, options: quietOptions())
        try sqlite.setup()
        defer { try? sqlite.tearDown() }
        let items = try allItems(sqlite, "Alpha") + allItems(sqlite, "Beta")
        #expect(items.count == 120, "\(Self.legacyLayouts[layout].name)")
        let memory = InMemoryDataStore()
        try memory.setup()
        try memory.writeSync { accessor in for item in items { try accessor.insert(item) } }
        try Self.compare(sqlite, memory, seed: UInt64(500 + layout))
    }
}
