import Persist
import PersistSQL

extension SchemaEditor {
    private static let relating = "Declaring a relation"

    /// Records a declared relation in the store's table of declared relations, creating that
    /// table the first time, and makes every connection load the schema again.
    func record(_ relation: DataStoreRelation, in schema: inout DatabaseSchema) throws {
        let table = SQLName.quoted(DatabaseSchema.relationTable)
        if !schema.hasRelationTable {
            try connection.executeOnce(
                "CREATE TABLE IF NOT EXISTS \(table) (position INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                    + "table_name TEXT NOT NULL, attributes BLOB NOT NULL, related_table TEXT NOT NULL, "
                    + "on_delete TEXT NOT NULL, UNIQUE (table_name, name))",
                operation: Self.relating)
            schema.hasRelationTable = true
            schema.takenNames[DatabaseSchema.relationTable] = DatabaseSchema.relationTable
        }
        try connection.execute(
            "INSERT INTO \(table) (name, table_name, attributes, related_table, on_delete) VALUES (?1, ?2, ?3, ?4, ?5)",
            [.text(relation.name), .text(relation.itemType), .blob(SchemaLoader.encodeAttributes(relation.attributes)),
             .text(relation.relatedType), .text(relation.onDelete.description)],
            operation: Self.relating)
        schema.declaredRelations.append(DeclaredRelation(relation: relation, isForeignKey: false))
        try markSchemaChanged(operation: Self.relating)
    }

    /// Adds `relation` to its referring table as a foreign key named after it, referring to
    /// `parentColumns`, `DEFERRABLE INITIALLY DEFERRED`; `false` when the table's text has no list
    /// of definitions to add it to.
    ///
    /// SQLite has no `ALTER TABLE … ADD FOREIGN KEY`, and its 12-step rebuild (a new table, a copy,
    /// `DROP TABLE`, a rename) needs `PRAGMA foreign_keys = OFF`, which a transaction cannot set:
    /// with foreign keys on, dropping a table that others refer to deletes its rows first, which
    /// would carry out their `ON DELETE` actions. A foreign key changes nothing the file stores
    /// but the table's text, so the text is changed in place, as SQLite documents for such changes
    /// ("Making Other Kinds Of Table Schema Changes"): under `PRAGMA writable_schema`, then the
    /// schema version is moved on. The new text is then parsed (listing the table's foreign keys)
    /// and the table's rows checked against the new foreign key; the caller's savepoint undoes it
    /// all when either fails.
    func addForeignKey(_ relation: DataStoreRelation, to table: TableSchema, parentColumns: [String], action: String,
                       checkingRows: Bool) throws -> Bool {
        let sql = try connection.withStatement("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?1",
                                               [.text(table.name)]) { statement in
            try statement.step(Self.relating) ? statement.text(0) : ""
        }
        let clause = "CONSTRAINT \(SQLName.quoted(relation.name)) FOREIGN KEY ("
            + relation.attributes.map(SQLName.quoted).joined(separator: ", ") + ") REFERENCES "
            + SQLName.quoted(relation.relatedType) + " (" + parentColumns.map(SQLName.quoted).joined(separator: ", ")
            + ") ON DELETE \(action) DEFERRABLE INITIALLY DEFERRED"
        guard let changed = TableSQL(sql).adding(definition: clause) else { return false }
        let before = try SchemaLoader.foreignKeys(of: table.name, connection).count
        try connection.executeOnce("PRAGMA writable_schema = ON", operation: Self.relating)
        do {
            try connection.execute("UPDATE sqlite_schema SET sql = ?1 WHERE type = 'table' AND name = ?2",
                                   [.text(changed), .text(table.name)], operation: Self.relating)
            try connection.executeOnce("PRAGMA writable_schema = OFF", operation: Self.relating)
        } catch {
            try? connection.executeOnce("PRAGMA writable_schema = OFF", operation: Self.relating)
            throw error
        }
        try markSchemaChanged(operation: Self.relating)
        let keys = try SchemaLoader.foreignKeys(of: table.name, connection)
        guard keys.count == before + 1, let added = keys.last(where: { $0.name == relation.name }) else {
            throw DataStoreError(
                .invalidArgument,
                "cannot declare the relation \(relation.name) (\(relation)) as a foreign key of table "
                    + "\(String(reflecting: table.name)) in the SQLite database at \(connection.path): SQLite did not read "
                    + "the table's text with it back; nothing was declared",
                path: connection.path)
        }
        if checkingRows { try checkNoRowBreaks(added, of: table) }
        return true
    }

    /// Refuses a new foreign key that a row of `table` already breaks, naming the first.
    private func checkNoRowBreaks(_ key: ForeignKeyListing, of table: TableSchema) throws {
        let broken = try connection.withStatement(
            "SELECT rowid FROM pragma_foreign_key_check(?1, 'main') WHERE fkid = ?2 LIMIT 1", [.text(table.name), .int(key.id)]
        ) { statement in
            try statement.step(Self.relating)
        }
        guard broken else { return }
        throw DataStoreError(
            .referenceViolation,
            "cannot make the foreign key \(key.name ?? "") of table \(String(reflecting: table.name)) in the SQLite database "
                + "at \(connection.path): a row of the table refers to a row of \(String(reflecting: key.parent)) that "
                + "does not exist as SQLite compares the columns; nothing was declared",
            path: connection.path)
    }

    /// The `ON DELETE` action of a declared rule; `nil` for an engine action SQLite does not know.
    static func foreignKeyAction(_ rule: DataStoreRelation.DeleteRule) -> String? {
        switch rule {
        case .deny: return "NO ACTION"
        case .cascade: return "CASCADE"
        case .nullify: return "SET NULL"
        case .engineAction(let action):
            let spelled = action.uppercased()
            return ["NO ACTION", "RESTRICT", "CASCADE", "SET NULL", "SET DEFAULT"].contains(spelled) ? spelled : nil
        }
    }
}
