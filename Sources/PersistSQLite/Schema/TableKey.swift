import PersistSQL
/// How a table's rows are identified.
enum TableKey: Sendable, Equatable {
    /// A single-column primary key.
    case column(name: String, affinity: ColumnAffinity, needsBinaryCollation: Bool)
    /// The rowid of a table without a usable single-column primary key, under one of the names
    /// `rowid`, `_rowid_` or `oid` that no real column shadows.
    case rowid(alias: String)

    /// The key as it is written in SQL.
    var sql: String {
        switch self {
        case .column(let name, _, _): SQLName.quoted(name)
        case .rowid(let alias): alias
        }
    }

    /// Whether only integer identifiers fit.
    var isRowid: Bool {
        if case .rowid = self { return true }
        return false
    }

    /// Whether a lookup must also check the key's storage class and compare it with BINARY collation,
    /// because the key column's affinity or collation would otherwise match a different identifier.
    var needsGuard: Bool {
        switch self {
        case .column(_, let affinity, let needsBinaryCollation): affinity != .none || needsBinaryCollation
        case .rowid: false
        }
    }
}
