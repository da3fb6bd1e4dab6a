import Persist
import PersistSQL

/// The ORDER BY terms that sort a column in the predicate semantics' order: missing values
/// first, NaN below every other number, strings by UTF-8 bytes, arrays and objects all tied.
enum OrderTerms {
    /// The terms for one sort key, or `nil` when PostgreSQL cannot sort the column exactly as
    /// the semantics say (then the store sorts).
    static func terms(_ column: ColumnSchema, ascending: Bool) -> [String]? {
        let direction = ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST"
        return expressions(column)?.map { $0 + direction }
    }

    /// The identifier, ascending.
    static func ascending(_ key: ColumnSchema) -> String {
        // A mixed key holds integers, strings and bytes only, whose encodings sort as they are.
        (key.type == .mixed ? key.quoted : expressions(key)?.first ?? key.quoted) + " ASC"
    }

    private static func expressions(_ column: ColumnSchema) -> [String]? {
        let q = column.quoted
        switch column.type {
        case .boolean, .smallint, .integer, .bigint, .bytea, .date, .timestamp, .timestamptz, .uuid:
            return [q]
        case .text(_, let byteOrdered):
            return [byteOrdered ? q : "\(q) COLLATE \"C\""]
        case .character:
            return ["bpcharsend(\(q))"]
        case .real, .doublePrecision:
            // NULL first (with NULLS FIRST), then NaN (false), then the other numbers (true).
            return ["(\(q) <> 'NaN'::float8)", q]
        case .numeric:
            return ["(\(q) <> 'NaN'::numeric)", q]
        case .persistDate:
            let seconds = PostgresDialect.dateSeconds(q)
            return ["(\(seconds) <> 'NaN'::float8)", seconds]
        case .encoded:
            return ["(\(q) IS NOT NULL)"]
        case .mixed:
            // Numbers and dates without their kind byte; every array, and every object, alike.
            return ["""
                CASE get_byte(\(q), 0) WHEN \(MixedValueCoding.numberTag) THEN substr(\(q), 1, length(\(q)) - 1) \
                WHEN \(MixedValueCoding.dateTag) THEN substr(\(q), 1, length(\(q)) - 1) \
                WHEN \(MixedValueCoding.arrayTag) THEN '\\x06'::bytea WHEN \(MixedValueCoding.objectTag) THEN '\\x07'::bytea \
                ELSE \(q) END
                """]
        case .json, .jsonb, .time, .timetz, .interval, .inet, .cidr, .macaddr, .macaddr8, .enumeration, .array:
            return nil
        }
    }
}
