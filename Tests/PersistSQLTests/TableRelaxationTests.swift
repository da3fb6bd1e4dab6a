import Foundation
import Persist
import PersistSQL
import Testing

/// How ``TableRelaxation`` compares values: loosely enough that no SQL target finds two values
/// equal that it kept apart.
@Suite("a recorded table loosens to the items a schemaless store holds")
struct TableRelaxationTests {
    private static let table = TableDescription(
        itemType: "t", key: .init(name: "id", declaredType: "INTEGER", notNull: true),
        columns: [.init(name: "a", declaredType: "TEXT", unique: true)])

    /// Whether two items holding `first` and `second` in `a` drop its UNIQUE.
    private static func conflict(_ first: Value, _ second: Value) -> Bool {
        var relaxation = TableRelaxation(table)
        relaxation.observe(id: 1) { $0 == "a" ? first : nil }
        relaxation.observe(id: 2) { $0 == "a" ? second : nil }
        return relaxation.isSettled && relaxation.result.notCarried == ["UNIQUE on \"a\" (two items of the file hold equal values there)"]
    }

    @Test("numbers by value as doubles, to SQLite's 15 significant digits, and text that reads as one as that number")
    func equalAsAnyTargetMightTakeThem() {
        let equal: [(Value, Value)] = [
            (1, 1.0), (true, 1), (1, "1"), (" 1 ", 1), ("1.0", "1.00"), (.double(0.1 + 0.2), "0.3"), (.double(.nan), "NaN"),
            (-0.0, 0), ("x", .bytes(Array("x".utf8))), ([1, 2], [1, 2]), (1e300, "1e300"),
            (.date(Date(timeIntervalSinceReferenceDate: 5)), 5),
            // A REAL column (SQLite) or a double precision one makes the two one double.
            (9_007_199_254_740_993, 9_007_199_254_740_992),
        ]
        for (first, second) in equal {
            #expect(Self.conflict(first, second), "\(first) and \(second)")
        }
    }

    @Test("values no target takes as equal, NULL and a missing attribute keep the UNIQUE")
    func apart() {
        let apart: [(Value, Value?)] = [(1, 2), ("x", "y"), ("x", "X"), (1, nil), (1, .null)]
        for (first, second) in apart {
            var relaxation = TableRelaxation(Self.table)
            relaxation.observe(id: 1) { $0 == "a" ? first : nil }
            relaxation.observe(id: 2) { $0 == "a" ? second : nil }
            relaxation.observe(id: 3) { _ in nil }
            #expect(!relaxation.isSettled && relaxation.result.description == Self.table, "\(first) and \(String(describing: second))")
        }
    }
}
