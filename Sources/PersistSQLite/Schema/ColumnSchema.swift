import PersistSQL
/// One attribute column of a table.
struct ColumnSchema: Sendable {
    /// What a column holds and how its values are read and compared.
    enum Storage: Sendable, Equatable {
        /// A column the store created: one kind, recorded in the metadata table, no affinity.
        case typed(ColumnKind)
        /// A column the store did not create: each value keeps its own storage class.
        case legacy(ColumnAffinity)
        /// A column the store created that met values of more than one kind: each value keeps its
        /// kind in the encoding of ``MixedCodec``, recorded as `mixed` in the metadata table.
        case mixed
    }

    /// The attribute (and column) name.
    let name: String
    /// The name quoted as an SQL identifier.
    let quoted: String
    let storage: Storage
    /// Whether comparisons must name `COLLATE BINARY` (the column declares another collation).
    let needsBinaryCollation: Bool
    /// Whether the column has a `DEFAULT` that an insert should leave in effect when the item lacks it.
    let hasDefault: Bool
    /// Whether a legacy column reads its numbers as decimals: it is declared `NUMERIC(p,s)` or
    /// `DECIMAL(p,s)` with a scale (see ``DecimalCodec``).
    let readsDecimals: Bool
    /// The text form of dates in a legacy column declared `DATE`, `DATETIME` or `TIMESTAMP` whose
    /// kind `date` is recorded (see ``DateText``); `nil` for other columns.
    let dateForm: DateText.Form?
    /// Whether a legacy column declared `json`, `jsonb` or as an array holds its values as JSON
    /// text, its kind `json` recorded (see ``JSONText``).
    let holdsJSON: Bool

    /// What the loader keeps for a column whose recorded kind is `json` (``JSONText/kindName``):
    /// no column the store created is legacy, so this storage stands for that record.
    static let jsonRecord = Storage.legacy(.none)

    init(name: String, storage: Storage, needsBinaryCollation: Bool = false, hasDefault: Bool = false,
         readsDecimals: Bool = false, dateForm: DateText.Form? = nil, holdsJSON: Bool = false) {
        self.dateForm = dateForm
        self.holdsJSON = holdsJSON
        self.name = name
        self.quoted = SQLName.quoted(name)
        self.storage = storage
        self.needsBinaryCollation = needsBinaryCollation
        self.hasDefault = hasDefault
        self.readsDecimals = readsDecimals
    }

    /// Whether `declaredType` is `boolean` or `bool` (any case), as PostgreSQL's boolean is declared.
    static func declaresBoolean(_ declaredType: String) -> Bool {
        let type = declaredType.lowercased().filter { !$0.isWhitespace }
        return type == "boolean" || type == "bool"
    }

    /// Whether `declaredType` is `NUMERIC(p,s)` or `DECIMAL(p,s)`: a decimal type with a scale.
    static func declaresScale(_ declaredType: String) -> Bool {
        let type = declaredType.uppercased().filter { !$0.isWhitespace }
        guard type.hasPrefix("NUMERIC(") || type.hasPrefix("DECIMAL("), type.hasSuffix(")"),
              let open = type.firstIndex(of: "(") else { return false }
        let parts = type[type.index(after: open)..<type.index(before: type.endIndex)].split(separator: ",", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }

    /// The column's affinity (none for typed columns).
    var affinity: ColumnAffinity {
        if case .legacy(let affinity) = storage { return affinity }
        return .none
    }
}
