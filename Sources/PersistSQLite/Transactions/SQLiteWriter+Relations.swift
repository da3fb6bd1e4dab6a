import Persist
import PersistSQL

extension SQLiteReader {
    /// The declared relations and the adopted foreign keys, from the schema the transaction reads.
    func relations() throws -> [DataStoreRelation]? {
        try checkedSchema.relations
    }
}

extension SQLiteWriter {
    private static let relating = "Declaring a relation"

    /// Declares a relation: recorded in the table of declared relations, and made a foreign key of
    /// the referring table when both tables exist and SQLite can compare the referring columns
    /// with the referred key as Persist does (see ``makeForeignKey(_:checkingRows:)``); otherwise
    /// the accessor enforces it, and it becomes a foreign key when its tables and columns exist.
    func ensureRelation(_ relation: DataStoreRelation) throws -> Bool? {
        try checkTransaction()
        if schema.relations.contains(where: { $0.itemType == relation.itemType && $0.name == relation.name && $0.hasSameRules(as: relation) }) {
            return false
        }
        if let parent = schema.tables[relation.relatedType], parent.key.isRowid {
            throw DataStoreError(
                .invalidArgument,
                "cannot declare the relation \(relation.name) (\(relation)) in the SQLite database at \(path): the table "
                    + "\(String(reflecting: parent.name)) has no PRIMARY KEY (its items are identified by rowid), so a "
                    + "foreign key cannot refer to it; nothing was declared. Give the table a primary key",
                path: path)
        }
        let before = schema
        do {
            try inSavepoint {
                try editor.record(relation, in: &schema)
                if try !makeForeignKey(relation, checkingRows: true), case .engineAction(let action) = relation.onDelete {
                    throw DataStoreError(
                        .invalidArgument,
                        "cannot declare the relation \(relation.name) (\(relation)) in the SQLite database at \(path): only "
                            + "a foreign key carries out \(action), and this relation cannot be one here (its tables or "
                            + "columns do not exist yet, or their keys are not plain columns); nothing was declared",
                        path: path)
                }
            }
        } catch {
            schema = before
            throw error
        }
        noteSchemaChange("declared the relation \(relation.name): \(relation)")
        return true
    }

    /// Whether SQLite carries out the rule: the relation is a foreign key (adopted, or declared and
    /// made one) with `ON DELETE CASCADE`, `SET NULL` or `SET DEFAULT`.
    func appliesDeleteRule(of relation: DataStoreRelation) -> Bool {
        guard relation.onDelete != .deny else { return false }
        if schema.adoptedRelations.contains(where: { $0.itemType == relation.itemType && $0.name == relation.name }) {
            return true
        }
        return schema.declaredRelations.contains {
            $0.isForeignKey && $0.relation.itemType == relation.itemType && $0.relation.name == relation.name
        }
    }

    /// Makes the declared relations that refer from or to `itemType`, and are not foreign keys
    /// yet, foreign keys where they now can be: after its table or columns were created. The rows
    /// are not checked: the block may still write the items they refer to, and the accessor
    /// checks every item written under a declared relation.
    func materializeRelations(touching itemType: String) throws {
        guard !schema.declaredRelations.isEmpty else { return }
        for declared in schema.declaredRelations
        where !declared.isForeignKey && (declared.relation.itemType == itemType || declared.relation.relatedType == itemType) {
            try inSavepoint {
                _ = try makeForeignKey(declared.relation, checkingRows: false)
            }
        }
    }

    /// Adds the declared `relation` to its referring table as a foreign key, when SQLite can
    /// compare its columns as Persist compares identifiers: both tables exist; the referred key is
    /// the referred table's primary key or the key column of a table the store created, with
    /// BINARY collation and plain (untagged) values; each referring attribute is a column of the
    /// referring table (or of its key) that holds numbers, strings, bytes or legacy values.
    /// `false` when it cannot.
    private func makeForeignKey(_ relation: DataStoreRelation, checkingRows: Bool) throws -> Bool {
        // A table a bulk load created gets its key index only when the load ends: no foreign key
        // can refer to it before.
        guard let child = schema.tables[relation.itemType], let parent = schema.tables[relation.relatedType],
              !parent.taggedKeys, bulkLoad?.deferredKeyIndexes.contains(parent.name) != true, let action = SchemaEditor.foreignKeyAction(relation.onDelete),
              let position = schema.declaredRelations.firstIndex(where: {
                  $0.relation.itemType == relation.itemType && $0.relation.name == relation.name
              }), !schema.declaredRelations[position].isForeignKey else { return false }
        let parentColumns: [String]
        switch parent.key {
        case .column(let name, _, let needsBinaryCollation):
            guard !needsBinaryCollation else { return false }
            parentColumns = [name]
        case .composite(let columns):
            guard !columns.contains(where: \.needsBinaryCollation) else { return false }
            parentColumns = columns.map(\.name)
        case .rowid:
            return false
        }
        guard parentColumns.count == relation.attributes.count,
              relation.attributes.allSatisfy({ Self.holdsPlainValues($0, of: child) }) else { return false }
        guard try editor.addForeignKey(relation, to: child, parentColumns: parentColumns, action: action,
                                       checkingRows: checkingRows) else { return false }
        schema.declaredRelations[position].isForeignKey = true
        noteSchemaChange("made the relation \(relation.name) a foreign key of table \(String(reflecting: child.name))")
        return true
    }

    /// Whether the column of `attribute` in `table` keeps the values a key compares with as they
    /// are: not tagged (a mixed column's bytes, a created table's tagged keys), not a date or a
    /// nested value.
    private static func holdsPlainValues(_ attribute: String, of table: TableSchema) -> Bool {
        if let index = table.columnIndex[attribute] {
            switch table.columns[index].storage {
            case .typed(let kind): return kind == .number || kind == .string || kind == .bytes
            case .legacy: return true
            case .mixed: return false
            }
        }
        if table.key.components.contains(where: { $0.name == attribute }) { return true }
        if case .column(let name, _, _) = table.key, name == attribute { return !table.taggedKeys }
        return false
    }
}

extension SQLiteReader {
    /// The key columns of an adopted table, one per identifier component, which its foreign keys
    /// may name (a link table keyed by two foreign keys); `nil` for a table keyed by the rowid
    /// alone, and for types without a table.
    func keyAttributes(ofType itemType: String) throws -> [String]? {
        guard let table = try checkedSchema.tables[itemType] else { return nil }
        switch table.key {
        case .column(let name, _, _): return [name]
        case .composite(let columns): return columns.map(\.name)
        case .rowid: return nil
        }
    }
}
