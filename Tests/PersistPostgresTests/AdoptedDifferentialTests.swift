import Foundation
import Persist
import PersistConformance
import PersistPostgres
import Testing
import PersistTestSupport

/// The same random requests on adopted tables of every mapped type and on an
/// `InMemoryDataStore` holding the same items must give identical answers: the requests compile
/// to SQL over declared types (integers, reals, numerics, collated text, char, dates, timestamps,
/// uuid) or, for JSON, are evaluated by the store. Aggregates of every column over the same
/// requests are compared too, the integer columns' computed by the server.
@Suite("PostgresDataStore answers random requests on adopted tables exactly like InMemoryDataStore")
struct AdoptedDifferentialTests {
    static let requestCount = 1500

    /// Two tables named like RandomData's item types, with its attribute names, of other types.
    static let tables = """
        CREATE TABLE "Alpha" (id integer PRIMARY KEY, i integer, d real, s varchar(20) COLLATE "und-x-icu", b boolean,
            t timestamptz, x bytea, n json, o jsonb);
        CREATE TABLE "Beta" (id text PRIMARY KEY, i numeric(12,3), d double precision, s char(3), b boolean, t date,
            x uuid, n timestamp, o smallint);
        """

    /// SQL literals per column, NULL included.
    static let alpha: [[String]] = [
        ["-3", "-1", "0", "1", "2", "3", "2147483647", "-2147483648"],
        ["'NaN'", "'-0'", "0", "1.5", "-2.5", "3", "'Infinity'", "'-Infinity'", "0.1"],
        ["''", "'a'", "'A'", "'ab'", "'b'", "'é'", "U&'e\\0301'", "'Zebra'", "'zebra'", "'10'", "'9'", "'ab c'"],
        ["true", "false"],
        ["'2001-01-01 00:00:00+00'", "'2001-01-01 00:00:01+00'", "'2000-12-31 23:59:59+00'", "'infinity'",
         "'2001-01-01 00:00:00.5+00'", "'2032-09-09 01:46:40+00'"],
        ["'\\x'", "'\\x00'", "'\\x0001'", "'\\x01'", "'\\xff'", "'\\x61'", "'\\x0000'"],
        ["'[]'", "'[1]'", "'[1.0]'", "'[\"a\"]'", "'1'", "'\"s\"'", "'null'", "'{\"a\": 1}'"],
        ["'{}'", "'{\"a\": 1}'", "'{\"a\": 1.0}'", "'{\"b\": [1]}'", "'true'", "'[1, \"a\"]'"],
    ]
    static let beta: [[String]] = [
        ["-3", "0", "1", "2.5", "2.000", "1000000", "'NaN'", "-0.001"],
        ["'NaN'", "'-0'", "0", "2.5", "1e300", "9007199254740993", "'-Infinity'", "3"],
        ["'a'", "'ab'", "'abc'", "'A'", "'é'", "'a\\t'"],
        ["true", "false"],
        ["'2001-01-01'", "'2000-12-31'", "'infinity'", "'-infinity'", "'2033-05-18'", "'2001-01-02'"],
        ["'00000000-0000-0000-0000-000000000001'", "'FFFFFFFF-0000-0000-0000-000000000000'"],
        ["'2001-01-01 00:00:00'", "'2001-01-01 00:00:00.000001'", "'2000-01-01 00:00:00'"],
        ["1", "-1", "0", "32767"],
    ]

    @Test("random requests over every mapped type")
    func adoptedTypes() throws {
        var generator = SeededGenerator(seed: 2024)
        var inserts: [String] = []
        for index in 0..<60 {
            func pick(_ pool: [String]) -> String {
                Int.random(in: 0..<5, using: &generator) == 0 ? "NULL" : pool[Int.random(in: 0..<pool.count, using: &generator)]
            }
            inserts.append("INSERT INTO \"Alpha\" VALUES (\(index * 7 % 101 - 50), \(Self.alpha.map(pick).joined(separator: ", ")));")
            let key = ["k", "K", "é", "a"][index % 4] + String(index)
            inserts.append("INSERT INTO \"Beta\" VALUES ('\(key)', \(Self.beta.map(pick).joined(separator: ", ")));")
        }
        try withPostgresStore(creatingWith: Self.tables + inserts.joined(separator: "\n")) { store, _ in
            let items = try allItems(store, "Alpha") + allItems(store, "Beta")
            #expect(items.count == 120)
            let memory = InMemoryDataStore()
            try memory.setup()
            try memory.writeSync { accessor in for item in items { try accessor.insert(item) } }
            var random = RandomData(seed: 99)
            var columns = SeededGenerator(seed: 7)
            var mismatches = 0
            for number in 0..<Self.requestCount {
                let request = random.request(itemCount: 60)
                func answer(_ store: any DataStore) throws -> ([Item], Int, Item?) {
                    try store.read { accessor in
                        (try accessor.items(forRequest: request), try accessor.countItems(forRequest: request),
                         try accessor.firstItem(forRequest: request))
                    }
                }
                let attribute = ["i", "d", "s", "b", "t", "x", "n", "o"][Int.random(in: 0..<8, using: &columns)]
                if let difference = try StoreAggregates.difference(attribute, over: request, in: store, from: memory) {
                    mismatches += 1
                    if mismatches <= 3 { Issue.record("request #\(number): \(difference)") }
                }
                let (actual, count, first) = try answer(store)
                let (expected, expectedCount, expectedFirst) = try answer(memory)
                if actual != expected || count != expectedCount || first != expectedFirst {
                    mismatches += 1
                    if mismatches <= 3 {
                        Issue.record("""
                            request #\(number): \(request.itemType) filter \(request.filter.map { "\($0)" } ?? "none") \
                            sort \(request.sortDescriptors.map { "\($0.key) \($0.ascending ? "asc" : "desc")" }) \
                            offset \(request.offset) limit \(request.limit.map(String.init) ?? "none")
                              in memory \(expectedCount): \(expected.map(\.id))
                              postgres  \(count): \(actual.map(\.id))
                            """)
                    }
                }
            }
            #expect(mismatches == 0, "\(mismatches) of \(Self.requestCount) requests differ")
        }
    }
}
