/// The type affinity SQLite gives a column from its declared type (section 3.1 of SQLite's
/// "Datatypes In SQLite"). Legacy columns with an affinity may convert values as they are stored.
enum ColumnAffinity: String, Sendable {
    /// No affinity (declared `BLOB`, no type, or `ANY` in a STRICT table): values are stored as given.
    case none
    case text, numeric, integer, real

    /// The affinity of a column declared with `declaredType`.
    init(declaredType: String, strict: Bool) {
        let type = declaredType.uppercased()
        if strict && type == "ANY" {
            self = .none
        } else if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.contains("BLOB") || type.isEmpty {
            self = .none
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }

    /// Whether a comparison with a bound value of this storage class would convert the bound
    /// value: numeric affinities convert text, text affinity converts numbers. Blobs never change.
    func convertsInComparison(_ storage: StorageClass) -> Bool {
        switch (self, storage) {
        case (.none, _), (_, .blob): false
        case (.text, .integer), (.text, .real): true
        case (.text, _): false
        case (_, .text): true
        default: false
        }
    }

    /// Whether storing a value of this storage class may change it (its class or its bits).
    /// Writes that may change are checked by reading the row back.
    func mayConvertOnStore(_ storage: StorageClass) -> Bool {
        switch (self, storage) {
        case (.none, _), (_, .blob): false
        case (.text, .text): false
        case (.integer, .integer), (.numeric, .integer): false
        default: true
        }
    }
}
