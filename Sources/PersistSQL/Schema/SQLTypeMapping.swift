import Persist

/// How declared column types map between SQL engines when a migration recreates a table: the
/// documented table of the "Schema-faithful migrations" article, as data and a function.
///
/// PostgreSQL → SQLite keeps PostgreSQL's spelling wherever SQLite's affinity for it keeps the
/// values (`character varying(40)`, `numeric(10,2)`, `timestamp without time zone`, `text[]`,
/// `uuid`, enum names, …), so that the declared type survives and legacy readers see it; `bigint`
/// is SQLite's `INTEGER` (so that an `INTEGER PRIMARY KEY` is the rowid again), `integer`,
/// `smallint` and `real` become `int4`, `int2` and `float4` (SQLite's `INTEGER` means 64 bits),
/// `character(n)` becomes `bpchar(n)` and `bytea` becomes `BLOB`. SQLite → PostgreSQL
/// reads the usual SQLite spellings (`NVARCHAR(200)` → `varchar(200)`, `DATETIME` → `timestamp`)
/// and gives those PostgreSQL spellings back to themselves.
///
/// ```swift
/// SQLTypeMapping.translate("REAL", from: .sqlite, to: .postgresql)          // "double precision"
/// SQLTypeMapping.translate("NVARCHAR(20)", from: .sqlite, to: .postgresql)  // "varchar(20)"
/// SQLTypeMapping.translate("integer", from: .postgresql, to: .sqlite)       // "int4"
/// ```
package enum SQLTypeMapping {
    /// One row of the table: SQLite affinity ↔ PostgreSQL type.
    package struct Row: Sendable, Equatable {
        /// The SQLite affinity, as SQLite derives it from a declared type (section 3.1 of "Datatypes In SQLite").
        package let sqliteAffinity: String
        /// The PostgreSQL type a column of that affinity becomes.
        package let postgresType: String
    }

    /// SQLite → PostgreSQL for a declared type no spelling rule knows, by affinity. REAL is
    /// `double precision`, never `real`, which would narrow doubles. NUMERIC becomes `numeric`
    /// only where every value fits (the loader falls back to `text`, bytes to `bytea`, per column,
    /// otherwise). A column with no type keeps every storage class, so it becomes `bytea` holding
    /// Persist's tagged encoding.
    package static let sqliteToPostgres: [Row] = [
        Row(sqliteAffinity: "INTEGER", postgresType: "bigint"),
        Row(sqliteAffinity: "REAL", postgresType: "double precision"),
        Row(sqliteAffinity: "TEXT", postgresType: "text"),
        Row(sqliteAffinity: "BLOB", postgresType: "bytea"),
        Row(sqliteAffinity: "NUMERIC", postgresType: "numeric"),
    ]

    /// SQLite spellings (lowercased, without modifiers) → the PostgreSQL type they become; `(n)`
    /// and `(p,s)` modifiers are carried where the PostgreSQL type takes them (see ``keepsModifier``).
    package static let sqliteSpellings: [(sqlite: [String], postgres: String)] = [
        (["integer", "int", "bigint", "int8", "unsigned big int"], "bigint"),
        (["int4", "mediumint"], "integer"),
        (["int2", "smallint", "tinyint"], "smallint"),
        (["real", "double", "double precision", "float", "float8"], "double precision"),
        (["float4"], "real"),
        (["text", "clob"], "text"),
        (["varchar", "nvarchar", "character varying", "varying character", "nchar", "char", "character",
          "native character"], "varchar"),
        (["bpchar"], "character"),
        (["numeric", "decimal"], "numeric"),
        (["datetime", "timestamp", "timestamp without time zone"], "timestamp"),
        (["timestamptz", "timestamp with time zone"], "timestamp with time zone"),
        (["date"], "date"),
        (["time", "time without time zone"], "time"),
        (["timetz", "time with time zone"], "time with time zone"),
        (["boolean", "bool"], "boolean"),
        (["blob"], "bytea"),
    ]

    /// PostgreSQL types (lowercased, without modifiers) that SQLite keeps as PostgreSQL spells them,
    /// and that come back to PostgreSQL as written: SQLite's affinity for each keeps its values
    /// (text, or integers and reals), and a value it would not keep makes the loader's column fall back.
    package static let keptSpellings: Set<String> = [
        "double precision", "float8", "text", "character varying", "varchar", "numeric",
        "decimal", "timestamp", "timestamp without time zone", "timestamp with time zone", "timestamptz", "date",
        "time", "time without time zone", "time with time zone", "timetz", "interval", "boolean", "bool", "uuid",
        "json", "jsonb", "xml", "inet", "cidr", "macaddr", "macaddr8", "citext", "name",
    ]

    /// PostgreSQL → SQLite renames: the PostgreSQL type and the SQLite spelling.
    package static let postgresRenames: [(postgres: [String], sqlite: String)] = [
        (["integer", "int", "int4", "serial", "serial4"], "int4"),
        (["smallint", "int2", "smallserial", "serial2"], "int2"),
        (["bigint", "int8", "bigserial", "serial8"], "INTEGER"),
        (["real", "float4"], "float4"),
        (["float"], "double precision"),
        (["character", "char", "bpchar"], "bpchar"),
        (["bytea"], "BLOB"),
        (["money"], "NUMERIC"),
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
    /// `VARCHAR(20)` exactly. A type named in `enumTypes` (an enum of PostgreSQL, or an array of
    /// one) is kept as written both ways, so that an enum column that went to SQLite comes back
    /// as the enum.
    package static func translate(_ declaredType: String, from source: SQLDialectName, to target: SQLDialectName,
                                  enumTypes: Set<String> = []) -> String {
        if source == target { return declaredType }
        if !enumTypes.isEmpty {
            let base = declaredType.hasSuffix("[]") ? String(declaredType.dropLast(2)) : declaredType
            if enumTypes.contains(base) { return declaredType }
        }
        switch (source, target) {
        case (.sqlite, .postgresql): return sqliteToPostgres(declaredType)
        default: return postgresToSQLite(declaredType)
        }
    }

    private static func sqliteToPostgres(_ declaredType: String) -> String {
        let type = Spelling(declaredType)
        if type.isArray, isName(type.base) { return type.written }
        if let postgres = sqliteSpellings.first(where: { $0.sqlite.contains(type.base) })?.postgres {
            // A character type without a length is unlimited: text, unless PostgreSQL spelled it.
            if postgres == "varchar" && type.modifier.isEmpty {
                return type.base == "character varying" || type.base == "varchar" ? type.base : "text"
            }
            if postgres == "timestamp" || postgres == "time" || postgres.hasSuffix("time zone") {
                if type.base.hasPrefix(postgres) { return type.written }
                // `timestamptz(3)` is `timestamp(3) with time zone`.
                guard !type.modifier.isEmpty, let space = postgres.firstIndex(of: " ") else { return postgres + type.modifier }
                return postgres[..<space] + type.modifier + postgres[space...]
            }
            if type.base == "character varying" { return type.written }
            return keepsModifier(postgres) ? postgres + type.modifier : postgres
        }
        if keptSpellings.contains(type.base) { return type.written }
        let affinity = sqliteAffinity(of: declaredType)
        return sqliteToPostgres.first { $0.sqliteAffinity == affinity }?.postgresType ?? "bytea"
    }

    private static func postgresToSQLite(_ declaredType: String) -> String {
        let type = Spelling(declaredType)
        if type.isArray { return isName(type.base) ? type.written : "BLOB" }
        if let rename = postgresRenames.first(where: { $0.postgres.contains(type.base) }) {
            return keepsModifier(rename.sqlite) ? rename.sqlite + type.modifier : rename.sqlite
        }
        if keptSpellings.contains(type.base) { return type.written }
        // An enum (or another type by name): its name, which SQLite accepts; a value its affinity
        // would convert makes the loader's column fall back.
        return isName(type.base) && type.modifier.isEmpty ? type.written : "BLOB"
    }

    /// Whether a type takes the `(n)` or `(p,s)` modifier of the type it comes from.
    private static func keepsModifier(_ type: String) -> Bool {
        ["varchar", "character", "bpchar", "numeric", "timestamp", "time", "interval"].contains(type)
    }

    /// Whether `name` is a plain type name SQLite's grammar takes: letters, digits, `_` and single spaces.
    private static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0 == " " || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    /// A PostgreSQL type name lowercased, without `(…)` modifiers or array brackets.
    static func baseName(_ declaredType: String) -> String { Spelling(declaredType).base }

    /// A declared type taken apart: lowercased, spaces collapsed.
    private struct Spelling {
        /// The name without modifier or array brackets: `character varying`.
        var base: String
        /// The modifier as written, spaces removed: `(40)`, `(10,2)`; empty for none.
        var modifier: String
        /// Whether the type ends in `[]`.
        var isArray: Bool
        /// The whole type, normalized: `character varying(40)`, `text[]`.
        var written: String

        init(_ declaredType: String) {
            var name = declaredType.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
                .joined(separator: " ")
            isArray = false
            while name.hasSuffix("[]") {
                isArray = true
                name.removeLast(2)
                name = name.trimmingSuffixSpaces()
            }
            modifier = ""
            if let open = name.firstIndex(of: "(") {
                let close = name[open...].firstIndex(of: ")").map { name.index(after: $0) } ?? name.endIndex
                modifier = String(name[open..<close]).filter { $0 != " " }
                name.removeSubrange(open..<close)
            }
            base = name.split(separator: " ").joined(separator: " ")
            // PostgreSQL writes `timestamp(3) without time zone`: the modifier after the first word.
            if base.hasPrefix("time"), let space = base.firstIndex(of: " "), !modifier.isEmpty {
                written = base[..<space] + modifier + base[space...]
            } else {
                written = base + modifier
            }
            if isArray { written += "[]" }
        }
    }
}

private extension String {
    func trimmingSuffixSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
