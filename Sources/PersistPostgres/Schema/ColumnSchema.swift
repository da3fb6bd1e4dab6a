/// One attribute column of a table (or its key column).
struct ColumnSchema: Sendable, Hashable {
    /// The attribute the column holds (for a key column, the key column's name).
    let attribute: String
    /// The column's name in SQL: the attribute, or a shortened name for a long one.
    let name: String
    /// The name quoted as an identifier.
    let quoted: String
    let type: ColumnType
    /// The OID of the column's declared type, which results report (a domain's own OID).
    let typeOID: UInt32
    /// Whether the store created the column and records its kind (``CreatedKind``): such a column
    /// widens instead of refusing a value of another kind.
    let isCreated: Bool
    /// Whether an insert that leaves the column out gets a default (`DEFAULT`, serial, identity).
    let hasDefault: Bool
    /// Whether the column is an identity column `GENERATED ALWAYS`: inserts that give it a value
    /// say `OVERRIDING SYSTEM VALUE`, and updates leave it alone (PostgreSQL refuses to set it).
    let isIdentityAlways: Bool

    init(attribute: String, name: String, type: ColumnType, typeOID: UInt32, isCreated: Bool, hasDefault: Bool = false,
         isIdentityAlways: Bool = false) {
        self.attribute = attribute
        self.name = name
        self.quoted = SQLName.quoted(name)
        self.type = type
        self.typeOID = typeOID
        self.isCreated = isCreated
        self.hasDefault = hasDefault
        self.isIdentityAlways = isIdentityAlways
    }

    /// The created kind of a column the store made.
    var createdKind: CreatedKind? {
        guard isCreated else { return nil }
        switch type {
        case .boolean: return .bool
        case .bigint: return .int
        case .doublePrecision: return .double
        case .numeric(nil, nil): return .decimal
        case .text: return .string
        case .bytea: return .bytes
        case .persistDate: return .date
        case .encoded(.array): return .array
        case .encoded(.object): return .object
        case .mixed: return .mixed
        default: return nil
        }
    }

    /// The typed NULL parameter for this column, so that statements keep one set of types.
    var nullParameter: PGValue {
        .typedNull(type.builtinOID == 0 ? typeOID : type.builtinOID)
    }
}
