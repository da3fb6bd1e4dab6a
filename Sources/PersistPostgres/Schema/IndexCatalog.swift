import Foundation
import Persist

/// The indexes of a store's tables: those Persist declared, recorded in the schema's
/// `persist_indexes` table (also before their table or columns exist), and those the tables
/// already had (adopted indexes and `UNIQUE` constraints), read from `pg_index`.
///
/// A declared index is created as `persist_index_N` as soon as its table and columns exist. A
/// unique one lists each mixed-encoded column as the encoding without the byte that tells equal
/// numbers (and dates) of different kinds apart, so that PostgreSQL's unique check compares
/// values as predicates do: `1` and `1.0`, `-0.0` and `0.0` are equal; it lists text under
/// `COLLATE "C"`, so that strings are equal only byte for byte.
struct IndexCatalog {
    let run: ([PGCommand]) throws -> [PGResult]
    let schema: StoreSchema

    private static let operation = "Reading the indexes"

    /// One declaration of `persist_indexes`.
    struct Declared {
        let name: String
        let attributes: [String]
        let isUnique: Bool
    }

    var hasDeclarations: Bool { schema.takenNames.contains(StoreSchema.indexesTable) }

    /// The declarations of `itemType`, in the order they were made.
    func declared(ofType itemType: String) throws -> [Declared] {
        guard hasDeclarations else { return [] }
        let result = try run([PGCommand(
            "SELECT name, attributes, is_unique FROM \(schema.qualified(StoreSchema.indexesTable)) "
                + "WHERE item_type = $1 ORDER BY position", [.text(itemType)], prepared: true, operation: Self.operation)])[0]
        return try (0..<result.rowCount).map { row in
            let encoded = try result.text(row, 1) ?? "[]"
            guard let attributes = try? JSONDecoder().decode([String].self, from: Data(encoded.utf8)) else {
                throw DataStoreError(.corrupt, "the table \(schema.qualified(StoreSchema.indexesTable)) records the "
                    + "attributes \(String(reflecting: encoded)), which are not a JSON array of strings")
            }
            return Declared(name: try result.text(row, 0) ?? "", attributes: attributes, isUnique: try result.bool(row, 2) ?? false)
        }
    }

    /// The indexes `table` has in PostgreSQL on plain columns, by name: whether each is unique,
    /// its columns' names, whether it indexes expressions, and whether it is valid (a failed
    /// `CREATE INDEX CONCURRENTLY` leaves an invalid one, which vouches for nothing about the rows
    /// already there). The primary key is left out.
    func existing(on table: TableSchema) throws
        -> [(name: String, isUnique: Bool, columns: [String], hasExpressions: Bool, isValid: Bool)] {
        let result = try run([PGCommand("""
            SELECT ic.relname::text, i.indisunique, (i.indexprs IS NOT NULL OR i.indpred IS NOT NULL), \
            coalesce(a.attname::text, ''), k.ord::int8, i.indisvalid \
            FROM pg_catalog.pg_index i JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid \
            CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord) \
            LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum \
            WHERE i.indrelid = $1::regclass AND NOT i.indisprimary AND k.ord <= i.indnkeyatts \
            ORDER BY ic.relname, k.ord
            """, [.text(table.qualified)], prepared: true, operation: Self.operation)])[0]
        var indexes: [(name: String, isUnique: Bool, columns: [String], hasExpressions: Bool, isValid: Bool)] = []
        for row in 0..<result.rowCount {
            let name = try result.text(row, 0) ?? ""
            let column = try result.text(row, 3) ?? ""
            if indexes.last?.name == name {
                indexes[indexes.count - 1].columns.append(column)
            } else {
                indexes.append((name, try result.bool(row, 1) ?? false, [column], try result.bool(row, 2) ?? false,
                                try result.bool(row, 5) ?? false))
            }
        }
        return indexes
    }

    /// Every index of `itemType`: the declared ones in the order they were declared, then the
    /// valid adopted ones on plain columns that hold attributes, by name (as on SQLite).
    func indexes(ofType itemType: String) throws -> [DataStoreIndex] {
        let declared = try declared(ofType: itemType)
        var indexes = declared.map { index in
            DataStoreIndex(itemType: itemType, attributes: index.attributes, isUnique: index.isUnique, name: index.name)
        }
        if let table = schema.tables[itemType] {
            let declaredNames = Set(declared.map(\.name))
            let attributeOfColumn = Dictionary(table.columns.map { ($0.name, $0.attribute) }, uniquingKeysWith: { a, _ in a })
            for index in try existing(on: table)
            where !declaredNames.contains(index.name) && !index.hasExpressions && index.isValid {
                let attributes = index.columns.compactMap { attributeOfColumn[$0] }
                guard attributes.count == index.columns.count else { continue }
                indexes.append(DataStoreIndex(itemType: itemType, attributes: attributes, isUnique: index.isUnique,
                                              name: index.name))
            }
        }
        return indexes
    }

    /// `CREATE [UNIQUE] INDEX` of a declaration over `table`; `nil` while a column is missing.
    static func createStatement(_ declared: Declared, on table: TableSchema, schema: StoreSchema) -> String? {
        var terms: [String] = []
        for attribute in declared.attributes {
            guard let column = table.column(attribute) ?? table.keyColumn(attribute) else { return nil }
            terms.append(term(column, unique: declared.isUnique))
        }
        return "CREATE \(declared.isUnique ? "UNIQUE " : "")INDEX \(SQLName.quoted(declared.name)) ON "
            + "\(table.qualified) (\(terms.joined(separator: ", ")))"
    }

    /// How an index lists a column: a mixed-encoded one of a unique index in its comparable form,
    /// and text whose collation does not compare bytes (an adopted column's, or `char(n)`) under
    /// `COLLATE "C"`, as requests compare it: under a nondeterministic collation PostgreSQL's
    /// unique check would take `"Rust"` and `"rust"` for one value.
    private static func term(_ column: ColumnSchema, unique: Bool) -> String {
        switch column.type {
        case .mixed where unique: comparableForm(column.quoted)
        case .text(_, byteOrdered: false), .character: "\(column.quoted) COLLATE \"C\""
        default: column.quoted
        }
    }

    /// Whether a declaration over `table` lists a column as an expression (see ``comparableForm(_:)``).
    static func needsExpressions(_ declared: Declared, on table: TableSchema) -> Bool {
        declared.isUnique && declared.attributes.contains { table.column($0)?.type == .mixed }
    }

    /// A mixed-encoded column without the byte after a number's or date's magnitude.
    static func comparableForm(_ column: String) -> String {
        "(CASE WHEN get_byte(\(column), 0) IN (\(MixedValueCoding.numberTag), \(MixedValueCoding.dateTag)) "
            + "THEN substr(\(column), 1, length(\(column)) - 1) ELSE \(column) END)"
    }
}
