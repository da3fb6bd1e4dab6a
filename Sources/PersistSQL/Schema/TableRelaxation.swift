import Foundation
import Persist

/// Loosens a table description a schemaless store recorded (a native GDBM file keeps the table of
/// an adopted SQL type, see <doc:SchemaFaithfulMigrations>) to the items the store holds now,
/// which edits may have taken past what the table allowed: a `NOT NULL` column an item lacks (or
/// holds null in), a `UNIQUE` column, constraint or unique index two items hold equal values in.
/// A copy that recreated the recorded table as it was would fail on data the store legitimately
/// holds; the relaxed table keeps every other part, a unique index stays as a plain index, and
/// each relaxation comes with a note for ``MigrationReport/schemaNotes``.
///
/// Values compare the way the loosest SQL target could: numbers (integers, doubles, booleans,
/// dates as their seconds) by value to 15 significant digits, strings that read as numbers as those
/// numbers, other strings by their bytes like blobs; NULL and a missing attribute never conflict.
/// So a doubt relaxes the table rather than lets the copy fail.
///
/// ```swift
/// var relaxation = TableRelaxation(recorded)
/// for item in items where !relaxation.isSettled {
///     relaxation.observe(id: item.id) { item.attributes[$0] }
/// }
/// let (table, notCarried) = relaxation.result
/// ```
package struct TableRelaxation {
    /// A UNIQUE the items may break: a column's, a table constraint or a unique index.
    private struct UniqueCheck {
        enum Origin {
            case column(String), constraint([String]), index(String)
        }

        let origin: Origin
        let columns: [String]
        /// The hashes of the value tuples seen so far, not the tuples: a million items cost about
        /// 16 MB, not a copy of their values (over 100 MB). Two different tuples sharing a 64-bit
        /// hash (for a million items, about 3 chances in 10^8) would only relax the table needlessly.
        var seen: Set<Int> = []
        var broken = false
    }

    private let recorded: TableDescription
    /// The NOT NULL columns (other than the key) no item has lacked so far, in table order.
    private var notNullHolding: [String]
    /// The NOT NULL columns some item lacks.
    private var notNullBroken: Set<String> = []
    private var checks: [UniqueCheck]

    package init(_ recorded: TableDescription) {
        self.recorded = recorded
        notNullHolding = recorded.columns.filter(\.notNull).map(\.name)
        checks = recorded.columns.filter(\.unique).map { UniqueCheck(origin: .column($0.name), columns: [$0.name]) }
            + recorded.uniqueConstraints.map { UniqueCheck(origin: .constraint($0), columns: $0) }
            + recorded.indexes.filter(\.unique).map { UniqueCheck(origin: .index($0.name), columns: $0.columns) }
    }

    /// Whether no item can relax the table further (then nothing more needs reading).
    package var isSettled: Bool {
        notNullHolding.isEmpty && checks.allSatisfy(\.broken)
    }

    /// Takes one item into account: its identifier (the key column's value, or the values of the
    /// columns of a key over several columns, in key order) and `attribute`, which
    /// gives the value of an attribute, `nil` when the item lacks it.
    package mutating func observe(id: ItemID, attribute: (String) throws -> Value?) rethrows {
        func value(_ name: String) throws -> Value? {
            if name == recorded.key?.name { return id.value }
            // A column of a key over several columns is the identifier's component at its place.
            if id.isComposite, let place = recorded.primaryKey.firstIndex(of: name), place < id.components.count {
                return id.components[place].value
            }
            guard let found = try attribute(name), !found.isNull else { return nil }
            return found
        }
        for name in notNullHolding where try value(name) == nil {
            notNullBroken.insert(name)
        }
        notNullHolding.removeAll { notNullBroken.contains($0) }
        for index in checks.indices where !checks[index].broken {
            var tuple: [UniquenessKey] = []
            for column in checks[index].columns {
                guard let found = try value(column) else { break }
                tuple.append(UniquenessKey(found))
            }
            guard tuple.count == checks[index].columns.count, !checks[index].seen.insert(tuple.hashValue).inserted
            else { continue }
            checks[index].broken = true
            checks[index].seen = []
        }
    }

    /// The table loosened to the items observed, and a note on each relaxation
    /// (`NOT NULL on "a" (an item of the file lacks a value there)`).
    package var result: (description: TableDescription, notCarried: [String]) {
        var relaxed = recorded
        var notes: [String] = []
        for index in relaxed.columns.indices where notNullBroken.contains(relaxed.columns[index].name) {
            relaxed.columns[index].notNull = false
            notes.append("NOT NULL on \(String(reflecting: relaxed.columns[index].name)) (an item of the file lacks a value there)")
        }
        let equalValues = "two items of the file hold equal values"
        for check in checks where check.broken {
            switch check.origin {
            case .column(let name):
                for index in relaxed.columns.indices where relaxed.columns[index].name == name {
                    relaxed.columns[index].unique = false
                }
                notes.append("UNIQUE on \(String(reflecting: name)) (\(equalValues) there)")
            case .constraint(let columns):
                relaxed.uniqueConstraints.removeAll { $0 == columns }
                notes.append("UNIQUE (\(columns.map { String(reflecting: $0) }.joined(separator: ", "))) (\(equalValues) there)")
            case .index(let name):
                for index in relaxed.indexes.indices where relaxed.indexes[index].name == name {
                    relaxed.indexes[index].unique = false
                }
                notes.append("UNIQUE in the index \(String(reflecting: name)) (\(equalValues) in its columns; "
                             + "the copy builds it as a plain index)")
            }
        }
        return (relaxed, notes)
    }
}

/// What a value compares as in a UNIQUE of any SQL target, loosely: equal keys for any two values
/// a target might take as equal (after its type affinity converts them).
private enum UniquenessKey: Hashable {
    /// A number rounded to 15 significant digits (SQLite's text of a REAL), never NaN.
    case number(Double)
    case notANumber
    case bytes([UInt8])

    init(_ value: Value) {
        switch value {
        case .null: self = .bytes([])  // never asked: NULL conflicts with nothing
        case .bool(let bool): self = .number(bool ? 1 : 0)
        case .int(let int): self = Self.rounded(Double(int))
        case .double(let double): self = Self.rounded(double)
        case .decimal(let decimal):
            self = decimal.isNaN ? .notANumber : Self.rounded(Double(DecimalText.text(decimal)) ?? 0)
        case .date(let date): self = Self.rounded(date.timeIntervalSinceReferenceDate)
        case .string(let string):
            let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
            self = Double(trimmed).map(Self.rounded) ?? .bytes(Array(string.utf8))
        case .bytes(let bytes): self = .bytes(bytes)
        case .array, .object: self = .bytes(BinaryValueCoding.encode(value))
        }
    }

    private static func rounded(_ double: Double) -> UniquenessKey {
        guard !double.isNaN else { return .notANumber }
        guard double.rounded() != double || abs(double) >= 1e15 else { return .number(double) }
        return .number(Double(String(format: "%.15g", double)) ?? double)
    }
}
