import PersistSQL

/// One column of a table's key.
struct KeyColumn: Sendable, Equatable {
    let name: String
    let affinity: ColumnAffinity
    /// Whether the column's collation is not BINARY, so that lookups must also compare with BINARY.
    let needsBinaryCollation: Bool

    /// The column as it is written in SQL.
    var quoted: String { SQLName.quoted(name) }
    /// The ORDER BY term of the column, ascending, in identifier order.
    var order: String { needsBinaryCollation ? "\(quoted) COLLATE BINARY" : quoted }
    /// Whether a lookup must also check the column's storage class and compare with BINARY collation.
    var needsGuard: Bool { affinity != .none || needsBinaryCollation }
}

/// How a table's rows are identified.
enum TableKey: Sendable, Equatable {
    /// A single-column primary key.
    case column(name: String, affinity: ColumnAffinity, needsBinaryCollation: Bool)
    /// A primary key of several columns, in key order: identifiers are composite, one component per column.
    case composite([KeyColumn])
    /// The rowid of a table without a usable primary key, under one of the names `rowid`,
    /// `_rowid_` or `oid` that no real column shadows.
    case rowid(alias: String)

    /// The key as it is written in SQL: for a composite key its columns, separated by commas (a
    /// row value once parenthesized).
    var sql: String {
        switch self {
        case .column(let name, _, _): SQLName.quoted(name)
        case .composite(let columns): columns.map(\.quoted).joined(separator: ", ")
        case .rowid(let alias): alias
        }
    }

    /// The columns of a composite key; empty otherwise.
    var components: [KeyColumn] {
        if case .composite(let columns) = self { return columns }
        return []
    }

    /// The number of result columns the key takes in a row.
    var width: Int {
        if case .composite(let columns) = self { return columns.count }
        return 1
    }

    /// The key's columns, for messages: `"a"` or `("a", "b")`.
    var described: String {
        if case .composite(let columns) = self {
            return "(" + columns.map { String(reflecting: $0.name) }.joined(separator: ", ") + ")"
        }
        if case .column(let name, _, _) = self { return String(reflecting: name) }
        return sql
    }

    /// Whether only integer identifiers fit.
    var isRowid: Bool {
        if case .rowid = self { return true }
        return false
    }

    /// Whether identifiers are composite.
    var isComposite: Bool {
        if case .composite = self { return true }
        return false
    }

    /// Whether a lookup must also check the key's storage class and compare it with BINARY collation,
    /// because the key column's affinity or collation would otherwise match a different identifier.
    var needsGuard: Bool {
        switch self {
        case .column(_, let affinity, let needsBinaryCollation): affinity != .none || needsBinaryCollation
        case .composite(let columns): columns.contains(where: \.needsGuard)
        case .rowid: false
        }
    }

    /// The number of parameters a lookup by key takes: the key's values, then (when it needs a
    /// guard) their storage class names.
    var parameterCount: Int {
        needsGuard ? 2 * width : width
    }

    /// The ORDER BY terms of identifiers, ascending.
    var order: String {
        switch self {
        case .column(_, _, true): "\(sql) COLLATE BINARY"
        case .column, .rowid: sql
        case .composite(let columns): columns.map(\.order).joined(separator: ", ")
        }
    }

    /// The condition selecting one row by key, over ``parameterCount`` parameters from `?1` on.
    var condition: String {
        let columns: [String] = switch self {
        case .composite(let columns): columns.map(\.quoted)
        case .column, .rowid: [sql]
        }
        let n = columns.count
        return columns.enumerated().map { offset, column in
            let value = "?\(offset + 1)"
            return needsGuard
                ? "\(column) = \(value) AND typeof(\(column)) = ?\(n + offset + 1) AND \(column) = \(value) COLLATE BINARY"
                : "\(column) = \(value)"
        }.joined(separator: " AND ")
    }
}
