/// The enum types of the database, with their labels, and the array types the schema's columns
/// have, with their element types: what ``SchemaBuilder`` needs beyond the built-in types.
struct CatalogTypes {
    /// Each enum type's labels, in their order.
    var enumLabels: [UInt32: [String]] = [:]
    /// Each array type's element type.
    var arrayElements: [UInt32: UInt32] = [:]

    /// The query, with the schema's name as `$1`: rows of (array OID, element OID, NULL) and
    /// (enum OID, 0, labels joined by U+001F).
    static let query = """
        SELECT t.oid::int8, t.typelem::int8, NULL::text FROM pg_catalog.pg_type t \
        WHERE t.typelem <> 0 AND t.typcategory = 'A' AND t.oid IN (\
        SELECT coalesce(nullif(d.typbasetype, 0), a.atttypid) FROM pg_catalog.pg_attribute a \
        JOIN pg_catalog.pg_class c ON c.oid = a.attrelid JOIN pg_catalog.pg_type d ON d.oid = a.atttypid \
        WHERE c.relnamespace = (SELECT n.oid FROM pg_catalog.pg_namespace n WHERE n.nspname = $1) \
        AND a.attnum > 0 AND NOT a.attisdropped) \
        UNION ALL SELECT e.enumtypid::int8, 0::int8, \
        pg_catalog.string_agg(e.enumlabel::text, E'\\x1f' ORDER BY e.enumsortorder) \
        FROM pg_catalog.pg_enum e GROUP BY e.enumtypid
        """

    init() {}

    init(_ result: PGResult) throws {
        for row in 0..<result.rowCount {
            let oid = UInt32(truncatingIfNeeded: try result.int64(row, 0) ?? 0)
            if let labels = try result.text(row, 2) {
                enumLabels[oid] = labels.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            } else {
                arrayElements[oid] = UInt32(truncatingIfNeeded: try result.int64(row, 1) ?? 0)
            }
        }
    }
}
