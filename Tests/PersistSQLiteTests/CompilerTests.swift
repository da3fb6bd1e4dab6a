import Foundation
import Persist
import PersistConformance
import PersistSQL
@testable import PersistSQLite
import Testing

/// The SQL compiler never pastes a value into SQL text: every value is a bound parameter.
@Suite("Requests compile to SQL with bound parameters only")
struct CompilerTests {
    static let table = TableSchema(
        name: "Alpha", key: .column(name: "persist_id", affinity: .none, needsBinaryCollation: false),
        columns: [
            ColumnSchema(name: "i", storage: .typed(.number)), ColumnSchema(name: "d", storage: .typed(.number)),
            ColumnSchema(name: "s", storage: .typed(.string)), ColumnSchema(name: "b", storage: .typed(.bool)),
            ColumnSchema(name: "t", storage: .typed(.date)), ColumnSchema(name: "x", storage: .typed(.bytes)),
            ColumnSchema(name: "n", storage: .typed(.array)), ColumnSchema(name: "o", storage: .typed(.object)),
            ColumnSchema(name: "legacy", storage: .legacy(.numeric), needsBinaryCollation: true),
        ],
        takenNames: [:], isStrict: false)

    /// The number of `?` placeholders outside quoted identifiers and string constants.
    static func placeholders(_ sql: String) -> Int {
        var count = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "?" {
                count += 1
            }
        }
        return count
    }

    /// The string constants in the SQL text: only storage class names may appear.
    static func stringConstants(_ sql: String) -> Set<String> {
        var constants: Set<String> = []
        var current: String?
        var inIdentifier = false
        for character in sql {
            if inIdentifier {
                if character == "\"" { inIdentifier = false }
            } else if var text = current {
                if character == "'" {
                    constants.insert(text)
                    current = nil
                } else {
                    text.append(character)
                    current = text
                }
            } else if character == "'" {
                current = ""
            } else if character == "\"" {
                inIdentifier = true
            }
        }
        return constants
    }

    @Test("random requests bind every value and name only columns and fixed words")
    func randomRequests() throws {
        var random = RandomData(seed: 99)
        for _ in 0..<2_000 {
            var request = random.request(itemCount: 60)
            request.itemType = "Alpha"
            for query in [try SQLiteDialect.select(request, from: Self.table), try SQLiteDialect.count(request, from: Self.table)] {
                #expect(Self.placeholders(query.sql) == query.parameters.count, "\(query.sql)")
                #expect(Self.stringConstants(query.sql).isSubset(of: ["integer", "real", "text", "blob"]), "\(query.sql)")
            }
        }
    }

    @Test("hostile literal values appear only as bindings")
    func hostileValues() throws {
        let hostile: [Value] = ["'); DROP TABLE x; --", "\" OR 1=1", "?", .bytes(Array("'; --".utf8)), 1, 2.5]
        for name in ["s", "x", "legacy", "i"] {
            for value in hostile {
                var request = DataStoreRequest(itemType: "Alpha")
                request.filter = .attribute(name) == value || .attribute(name) < value || .attribute(name).contains(value)
                    || .attribute(name).isIn([value, .null])
                request.sortDescriptors = [.descending(name)]
                request.limit = 3
                let query = try SQLiteDialect.select(request, from: Self.table)
                #expect(!query.sql.contains("DROP") && !query.sql.contains("OR 1=1") && !query.sql.contains("--"))
                #expect(Self.placeholders(query.sql) == query.parameters.count)
            }
        }
    }

    @Test("identifiers are quoted with inner quotes doubled")
    func quoting() {
        #expect(SQLName.quoted("plain") == "\"plain\"")
        #expect(SQLName.quoted("a\"b") == "\"a\"\"b\"")
        #expect(SQLName.quoted("Robert'); DROP TABLE x;--") == "\"Robert'); DROP TABLE x;--\"")
        #expect(SQLName.folded("NaMe É") == "name É")
    }
}

/// Requests that stretch SQLite's limits still run.
@Suite("Large requests run on SQLiteDataStore")
struct LargeRequestTests {
    @Test("filters built from thousands of alternatives or conditions stay within SQLite's limits")
    func longChains() throws {
        try withFileStore { store, _ throws in
            try store.writeSync { accessor in
                for index in 0..<100 {
                    try accessor.insert(Item(itemType: "Row", id: .int(Int64(index)), attributes: ["v": .int(Int64(index))]))
                }
            }
            let wanted = (0..<3_000).map { Int64($0 * 7 % 5_000) }
            var request = DataStoreRequest(itemType: "Row")
            request.filter = wanted.map { .attribute("v") == .int($0) }.reduce(.attribute("v") == -1) { $0 || $1 }
            let expected = Set(wanted.filter { $0 < 100 }).sorted().map { ItemID.int($0) }
            #expect(try store.read { try $0.items(forRequest: request).map(\.id) } == expected)
            request.filter = .attribute("v").isIn(wanted.map { .int($0) })
            #expect(try store.read { try $0.items(forRequest: request).map(\.id) } == expected)
            request.filter = (0..<3_000).map { _ in .attribute("v") >= 10 }.reduce(.attribute("v") < 20) { $0 && $1 }
            #expect(try store.read { try $0.countItems(forRequest: request) } == 10)
        }
    }
}
