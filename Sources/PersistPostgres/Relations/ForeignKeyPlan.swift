import Persist
import PersistSQL

/// The foreign key a declared relation becomes, when PostgreSQL can carry it out: the referring
/// and the related table exist, the referring attributes have columns (or are columns of the
/// referring table's key), and each can hold the related key's column it matches — the same
/// kind of type (integers of any width, text, `char(n)`, `bytea`, `uuid`), or both in Persist's
/// mixed encoding, whose bytes are equal exactly when the identifiers are.
///
/// A created column of another encoding than the key (a `bigint` column of identifiers of a
/// table whose key widened to the mixed encoding, say) cannot reference it: such a relation is
/// enforced by Persist.
struct ForeignKeyPlan {
    let relation: DataStoreRelation
    let table: TableSchema
    let related: TableSchema
    /// The referring columns, in the order of the related key's columns.
    let columns: [ColumnSchema]

    init?(_ relation: DataStoreRelation, schema: StoreSchema) {
        guard relation.name.utf8.count <= SQLName.maximumBytes, !relation.name.containsNUL,
              let table = schema.tables[relation.itemType], !table.rowKey.isKeyless,
              let related = schema.tables[relation.relatedType], !related.rowKey.isKeyless,
              related.rowKey.columns.count == relation.attributes.count else { return nil }
        var columns: [ColumnSchema] = []
        for (attribute, keyColumn) in zip(relation.attributes, related.rowKey.columns) {
            guard let column = table.column(attribute) ?? table.keyColumn(attribute),
                  let kind = Self.referenceKind(column.type), kind == Self.referenceKind(keyColumn.type) else { return nil }
            columns.append(column)
        }
        self.relation = relation
        self.table = table
        self.related = related
        self.columns = columns
    }

    /// What a column's values compare as in a foreign key; `nil` for types no key has.
    static func referenceKind(_ type: ColumnType) -> String? {
        switch type {
        case .smallint, .integer, .bigint: "integer"
        case .text: "text"
        case .character: "character"
        case .bytea: "bytea"
        case .uuid: "uuid"
        case .mixed: "mixed"
        default: nil
        }
    }

    /// `ON DELETE` for the relation's rule.
    var deleteAction: String {
        switch relation.onDelete {
        case .cascade: "CASCADE"
        case .nullify: "SET NULL"
        default: "NO ACTION"
        }
    }

    /// `ALTER TABLE … ADD CONSTRAINT … FOREIGN KEY … DEFERRABLE INITIALLY DEFERRED`: PostgreSQL
    /// checks references when the block commits, so that the order of writes within a block does
    /// not matter; its delete actions run at once.
    var addStatement: String {
        "ALTER TABLE \(table.qualified) ADD CONSTRAINT \(SQLName.quoted(relation.name)) FOREIGN KEY "
            + "(\(columns.map(\.quoted).joined(separator: ", "))) REFERENCES \(related.qualified) "
            + "(\(related.rowKey.columnList)) ON DELETE \(deleteAction) DEFERRABLE INITIALLY DEFERRED"
    }

    /// The foreign key once added.
    var foreignKey: ForeignKey {
        ForeignKey(name: relation.name, table: table.name, referredTable: related.name, columns: columns.map(\.name),
                   referredColumns: related.rowKey.columns.map(\.name),
                   deleteAction: relation.onDelete == .cascade ? "c" : relation.onDelete == .nullify ? "n" : "a",
                   isDeferrable: true)
    }
}
