import Persist
import PersistSQL

/// Taking an item type's name back from a table the store created for it that legacy code has
/// renamed since (`ALTER TABLE "Note" RENAME TO "Note_old"`, to archive it): the renamed table keeps
/// its key index, `persist_key:Note`, whose name a new `Note` table's key index needs.
extension SchemaEditor {
    private static let renaming = "Giving a renamed table's key index its own name"

    /// When a table the store created for `itemType` was renamed to another name since, gives its
    /// key index the name of its new table (`persist_key:Note_old`) and moves the column kinds
    /// recorded under `itemType` to that table (its own rows, written since the rename, are newer and
    /// stay), so that the renamed table keeps its items and kinds and `itemType` is free for a new
    /// table. Does nothing, and returns `nil`, when the name is not held that way, when indexes
    /// declared for `itemType` would meet the renamed table's indexes, or when the new index name is
    /// taken; otherwise returns the renamed table's name.
    func releaseKeyIndexName(of itemType: String, in schema: inout DatabaseSchema) throws -> String? {
        let index = DatabaseSchema.keyIndexName(for: itemType)
        guard schema.takenNames[SQLName.folded(itemType)] == nil, schema.takenNames[SQLName.folded(index)] == index,
              (schema.declaredIndexes[itemType] ?? []).isEmpty,
              let holder = try table(ofIndex: index), holder != itemType,
              case .column(let key, _, _)? = schema.tables[holder]?.key, key == DatabaseSchema.createdKeyColumn
        else { return nil }
        let own = DatabaseSchema.keyIndexName(for: holder)
        guard schema.takenNames[SQLName.folded(own)] == nil else { return nil }
        try connection.executeOnce("CREATE UNIQUE INDEX \(SQLName.quoted(own)) ON \(SQLName.quoted(holder)) "
                                       + "(\(SQLName.quoted(DatabaseSchema.createdKeyColumn)))", operation: Self.renaming)
        try connection.executeOnce("DROP INDEX \(SQLName.quoted(index))", operation: Self.renaming)
        if schema.hasMetadataTable {
            let metadata = SQLName.quoted(DatabaseSchema.metadataTable)
            try connection.execute(
                "INSERT OR IGNORE INTO \(metadata) (table_name, column_name, kind) "
                    + "SELECT ?1, column_name, kind FROM \(metadata) WHERE table_name = ?2",
                [.text(holder), .text(itemType)], operation: Self.renaming)
            try connection.execute("DELETE FROM \(metadata) WHERE table_name = ?1", [.text(itemType)],
                                   operation: Self.renaming)
        }
        schema.takenNames[SQLName.folded(index)] = nil
        schema.takenNames[SQLName.folded(own)] = own
        return holder
    }

    /// The table the index `name` is on, `nil` when there is no such index.
    private func table(ofIndex name: String) throws -> String? {
        try connection.withStatement("SELECT tbl_name FROM sqlite_schema WHERE type = 'index' AND name = ?1",
                                     [.text(name)]) { statement in
            try statement.step(Self.renaming) ? statement.text(0) : nil
        }
    }
}
