import Persist

/// The item types of one database at one schema version: adopted and created tables, the names
/// already taken, and what was skipped.
struct DatabaseSchema: Sendable {
    /// The name of the store's metadata table, which records the kind of every column it created.
    static let metadataTable = "persist_columns"
    /// The key column of the tables the store creates.
    static let createdKeyColumn = "persist_id"

    /// The unique index on ``createdKeyColumn`` of a table the store creates for `itemType`.
    static func keyIndexName(for itemType: String) -> String {
        "persist_key:" + itemType
    }

    /// Item type → table; names match exactly.
    var tables: [String: TableSchema] = [:]
    /// Every table, view and index name (case-folded, as SQLite compares them) → the name as declared.
    var takenNames: [String: String] = [:]
    /// Tables and views that are not item types.
    var skipped: [SkippedTable] = []
    /// Whether the metadata table exists.
    var hasMetadataTable = false

    /// Why the store cannot create a table for `itemType`, or `nil` when it can.
    func reasonNotToCreate(_ itemType: String) -> String? {
        if SQLName.folded(itemType) == DatabaseSchema.metadataTable {
            return "\(DatabaseSchema.metadataTable) is the name of the store's own metadata table"
        }
        if SQLName.isReservedBySQLite(itemType) {
            return "SQLite reserves table names starting with \"sqlite_\""
        }
        let index = DatabaseSchema.keyIndexName(for: itemType)
        if let taken = takenNames[SQLName.folded(index)] {
            return "the table's key index would be named \(String(reflecting: index)), and the database already has "
                + "\(String(reflecting: taken))"
        }
        if let taken = takenNames[SQLName.folded(itemType)] {
            if taken == itemType {
                return "the database already has a table, view or index with this name that is not an item type"
            }
            return "SQLite compares table names without regard to ASCII case, and the database already has "
                + "\(String(reflecting: taken))"
        }
        return nil
    }
}
