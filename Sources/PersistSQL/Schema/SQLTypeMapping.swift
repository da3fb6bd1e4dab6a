import Persist

/// How declared column types map between SQL engines when a migration recreates a table: the
/// documented table of the "Schema-faithful migrations" article, as data and a function.
///
/// ```swift
/// SQLTypeMapping.translate("REAL", from: .sqlite, to: .postgresql)       // "double precision"
/// SQLTypeMapping.translate("varchar(20)", from: .postgresql, to: .sqlite) // "TEXT"
/// ```
package enum SQLTypeMapping {
    /// One row of the table: SQLite affinity ↔ PostgreSQL type.
    package struct Row: Sendable, Equatable {
        /// The SQLite affinity, as SQLite derives it from a declared type (section 3.1 of "Datatypes In SQLite").
        package let sqliteAffinity: String
        /// The PostgreSQL type a column of that affinity becomes.
        package let postgresType: String
    }

    /// SQLite → PostgreSQL, by affinity. REAL is `double precision`, never `real`, which would
    /// narrow doubles. NUMERIC becomes `numeric` only where every value fits (the loader falls back
    /// to `text`, bytes to `bytea`, per column, otherwise). A column with no type keeps every
    /// storage class, so it becomes `bytea` holding Persist's tagged encoding.
    package static let sqliteToPostgres: [Row] = [
        Row(sqliteAffinity: "INTEGER", postgresType: "bigint"),
        Row(sqliteAffinity: "REAL", postgresType: "double precision"),
        Row(sqliteAffinity: "TEXT", postgresType: "text"),
        Row(sqliteAffinity: "BLOB", postgresType: "bytea"),
        Row(sqliteAffinity: "NUMERIC", postgresType: "numeric"),
    ]

    /// PostgreSQL → SQLite: each PostgreSQL type (lowercased, without length or precision) and the
    /// SQLite type that gives the affinity keeping its values.
    package static let postgresToSQLite: [(postgres: [String], sqlite: String)] = [
        (["bigint", "int8", "integer", "int", "int4", "smallint", "int2", "bigserial", "serial", "smallserial",
          "serial8", "serial4", "serial2", "boolean", "bool"], "INTEGER"),
        (["double precision", "float8", "real", "float4", "float"], "REAL"),
        (["text", "character varying", "varchar", "character", "char", "bpchar", "name", "citext", "uuid", "json",
          "jsonb", "xml", "date", "time", "timestamp", "timestamp without time zone", "timestamp with time zone",
          "timestamptz", "interval", "inet", "cidr", "macaddr"], "TEXT"),
        (["bytea"], "BLOB"),
        (["numeric", "decimal", "money"], "NUMERIC"),
    ]

    /// SQLite's affinity of a declared type (the rules of section 3.1 of "Datatypes In SQLite").
    package static func sqliteAffinity(of declaredType: String) -> String {
        let type = declaredType.uppercased()
        if type.contains("INT") { return "INTEGER" }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return "TEXT" }
        if type.contains("BLOB") || type.isEmpty { return "BLOB" }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { return "REAL" }
        return "NUMERIC"
    }

    /// The declared type a column of `declaredType` in `source` gets in `target`. Between engines
    /// of one kind the type is kept as written, so SQLite → SQLite keeps `STRING` and
    /// `VARCHAR(20)` exactly.
    package static func translate(_ declaredType: String, from source: SQLDialectName, to target: SQLDialectName) -> String {
        if source == target { return declaredType }
        switch (source, target) {
        case (.sqlite, .postgresql):
            let affinity = sqliteAffinity(of: declaredType)
            return sqliteToPostgres.first { $0.sqliteAffinity == affinity }?.postgresType ?? "bytea"
        default:
            let base = baseName(declaredType)
            return postgresToSQLite.first { $0.postgres.contains(base) }?.sqlite ?? "BLOB"
        }
    }

    /// A PostgreSQL type name lowercased, without `(…)` modifiers or array brackets.
    static func baseName(_ declaredType: String) -> String {
        var name = declaredType.lowercased()
        if let open = name.firstIndex(of: "(") {
            let close = name[open...].firstIndex(of: ")").map { name.index(after: $0) } ?? name.endIndex
            name.removeSubrange(open..<close)
        }
        return name.split(separator: " ").joined(separator: " ")
    }
}
