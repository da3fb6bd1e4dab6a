import Persist
import PersistSQL

/// A foreign key of a table as `PRAGMA foreign_key_list` lists it, with the name its table's
/// text gives it.
struct ForeignKeyListing: Sendable, Equatable {
    /// SQLite's number of the foreign key in its table.
    let id: Int64
    /// The referred table, as the foreign key names it.
    let parent: String
    /// The referring columns.
    let columns: [String]
    /// The referred columns; empty when the foreign key names none (the parent's primary key).
    let parentColumns: [String]
    /// `NO ACTION`, `RESTRICT`, `CASCADE`, `SET NULL` or `SET DEFAULT`.
    let onDelete: String
    /// The constraint name in the table's text, if it gives one.
    var name: String?
}

extension SchemaLoader {
    private static let readingRelations = "Reading the relations"

    /// Reads the relations declared through the store and, for every item type, the foreign keys
    /// of its table as relations. A foreign key is a relation when it refers to the primary key
    /// of a table that is an item type (`NO ACTION` and `RESTRICT` are ``DataStoreRelation/DeleteRule/deny``,
    /// `CASCADE` ``DataStoreRelation/DeleteRule/cascade``, `SET NULL` ``DataStoreRelation/DeleteRule/nullify``,
    /// `SET DEFAULT` an engine action); one that refers to other columns (a `UNIQUE` one) or to a
    /// table that is not an item type is not. A declared relation that the table has as a foreign
    /// key (named after it) is listed once, as declared.
    static func loadRelations(into schema: inout DatabaseSchema, _ connection: SQLiteConnection) throws {
        if schema.hasRelationTable {
            try connection.withStatement(
                "SELECT name, table_name, attributes, related_table, on_delete FROM "
                    + "\(SQLName.quoted(DatabaseSchema.relationTable)) ORDER BY position"
            ) { statement in
                while try statement.step(readingRelations) {
                    let name = statement.text(0)
                    guard let attributes = decodeAttributes(statement.blob(2)) else {
                        throw DataStoreError(
                            .corrupt, "the relation \(String(reflecting: name)) recorded in the table "
                                + "\(DatabaseSchema.relationTable) of the SQLite database at \(connection.path) has no valid "
                                + "attribute list; drop that row with the sqlite3 shell and declare the relation again",
                            path: connection.path)
                    }
                    let relation = DataStoreRelation(itemType: statement.text(1), attributes: attributes,
                                                     relatedType: statement.text(3), onDelete: deleteRule(recorded: statement.text(4)),
                                                     name: name)
                    schema.declaredRelations.append(DeclaredRelation(relation: relation, isForeignKey: false))
                }
            }
        }
        for table in schema.tables.keys.sorted(by: ByteOrder.precedes) {
            let keys = try foreignKeys(of: table, connection)
            var taken: Set<String> = []
            for key in keys {
                if let name = key.name,
                   let declared = schema.declaredRelations.firstIndex(where: { $0.relation.itemType == table && $0.relation.name == name }) {
                    schema.declaredRelations[declared].isForeignKey = true
                    continue
                }
                guard var relation = adopted(key, of: table, in: schema) else {
                    schema.hasUnlistedForeignKeys = true
                    continue
                }
                if !taken.insert(relation.name).inserted {
                    var number = 2
                    while taken.contains("\(relation.name)_\(number)") { number += 1 }
                    relation.name = "\(relation.name)_\(number)"
                    taken.insert(relation.name)
                }
                schema.adoptedRelations.append(relation)
            }
        }
    }

    /// The foreign keys of `table`, in the order its text declares them, each with its name.
    static func foreignKeys(of table: String, _ connection: SQLiteConnection) throws -> [ForeignKeyListing] {
        var listed: [Int64: ForeignKeyListing] = [:]
        try connection.withStatement(
            "SELECT id, \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list(?1, 'main') ORDER BY id, seq",
            [.text(table)]
        ) { statement in
            while try statement.step(readingRelations) {
                let id = statement.int64(0)
                let existing = listed[id] ?? ForeignKeyListing(id: id, parent: statement.text(1), columns: [], parentColumns: [],
                                                                onDelete: statement.text(4).uppercased())
                let parentColumns = statement.storageClass(3) == nil ? existing.parentColumns
                    : existing.parentColumns + [statement.text(3)]
                listed[id] = ForeignKeyListing(id: id, parent: existing.parent, columns: existing.columns + [statement.text(2)],
                                               parentColumns: parentColumns, onDelete: existing.onDelete)
            }
        }
        guard !listed.isEmpty else { return [] }
        // SQLite numbers the foreign keys from the last declared one: the text's order is the reverse.
        var keys = listed.values.sorted { $0.id > $1.id }
        let sql = try connection.withStatement("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?1",
                                               [.text(table)]) { statement in
            try statement.step(readingRelations) ? statement.text(0) : ""
        }
        var declared = TableSQL(sql).foreignKeys
        for index in keys.indices {
            let columns = keys[index].columns.map(SQLName.folded)
            let parent = SQLName.folded(keys[index].parent)
            if let match = declared.firstIndex(where: { $0.columns.map(SQLName.folded) == columns && SQLName.folded($0.parent) == parent }) {
                keys[index].name = declared[match].name
                declared.remove(at: match)
            }
        }
        return keys
    }

    /// The relation an adopted foreign key is, or `nil` when it is none: its parent is not an
    /// item type, or it refers to columns that are not its parent's whole primary key.
    static func adopted(_ key: ForeignKeyListing, of table: String, in schema: DatabaseSchema) -> DataStoreRelation? {
        guard let parentName = schema.takenNames[SQLName.folded(key.parent)], let parent = schema.tables[parentName],
              !parent.taggedKeys else { return nil }
        let keyColumns: [String]
        switch parent.key {
        case .column(let name, _, _): keyColumns = [name]
        case .composite(let columns): keyColumns = columns.map(\.name)
        case .rowid: return nil
        }
        guard key.columns.count == keyColumns.count else { return nil }
        var attributes = key.columns
        if !key.parentColumns.isEmpty {
            // In the order of the parent's key, which is the order of its identifiers' components.
            let referred = key.parentColumns.map(SQLName.folded)
            guard Set(referred) == Set(keyColumns.map(SQLName.folded)), Set(referred).count == referred.count else { return nil }
            attributes = keyColumns.map { column in
                key.columns[referred.firstIndex(of: SQLName.folded(column)) ?? 0]
            }
        }
        return DataStoreRelation(itemType: table, attributes: attributes, relatedType: parent.name,
                                 onDelete: deleteRule(action: key.onDelete), name: key.name)
    }

    /// The rule of a foreign key's `ON DELETE` action.
    static func deleteRule(action: String) -> DataStoreRelation.DeleteRule {
        switch action {
        case "NO ACTION", "RESTRICT": .deny
        case "CASCADE": .cascade
        case "SET NULL": .nullify
        default: .engineAction(action)
        }
    }

    /// A rule as the table of declared relations records it (its description).
    static func deleteRule(recorded: String) -> DataStoreRelation.DeleteRule {
        switch recorded {
        case "deny": .deny
        case "cascade": .cascade
        case "nullify": .nullify
        default: .engineAction(recorded)
        }
    }
}
