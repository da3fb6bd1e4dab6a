import Persist
import PersistSQL

extension SchemaLoader {
    private static let readingIndexes = "Reading the indexes"

    /// Reads the indexes declared through the store and, for every item type, the indexes of its
    /// table the store did not declare. Adopted indexes are reported when they cover plain
    /// columns that hold attributes and no `WHERE` clause; expression and partial indexes are
    /// not, nor are indexes that cover the key column (the primary key of a table keyed by it,
    /// say) or a generated column. The primary key of a table keyed by its rowid (of several
    /// columns, or a `REAL` one) is a unique index of its items.
    static func loadIndexes(into schema: inout DatabaseSchema, _ connection: SQLiteConnection) throws {
        var declaredNames: Set<String> = []
        if schema.hasIndexTable {
            try connection.withStatement(
                "SELECT name, table_name, attributes, is_unique FROM \(SQLName.quoted(DatabaseSchema.indexTable)) "
                    + "ORDER BY position"
            ) { statement in
                while try statement.step(readingIndexes) {
                    let name = statement.text(0)
                    guard let attributes = decodeAttributes(statement.blob(2)) else {
                        throw DataStoreError(
                            .corrupt, "the index \(String(reflecting: name)) recorded in the table "
                                + "\(DatabaseSchema.indexTable) of the SQLite database at \(connection.path) has no valid "
                                + "attribute list; drop that row with the sqlite3 shell and declare the index again",
                            path: connection.path)
                    }
                    schema.declaredIndexes[statement.text(1), default: []].append(
                        DeclaredIndex(name: name, attributes: attributes, isUnique: statement.int64(3) != 0))
                    declaredNames.insert(SQLName.folded(name))
                }
            }
        }
        for table in schema.tables.keys {
            var found: [(name: String, unique: Bool)] = []
            let keyedByRowid = schema.tables[table]?.key.isRowid == true
            try connection.withStatement(
                "SELECT name, \"unique\" FROM pragma_index_list(?1, 'main') WHERE (origin <> 'pk' OR ?2) AND partial = 0 "
                    + "ORDER BY name", [.text(table), .int(keyedByRowid ? 1 : 0)]
            ) { statement in
                while try statement.step(readingIndexes) {
                    found.append((statement.text(0), statement.int64(1) != 0))
                }
            }
            for (name, unique) in found where !declaredNames.contains(SQLName.folded(name)) {
                var columns: [String] = []
                var plain = true
                try connection.withStatement(
                    "SELECT cid, name FROM pragma_index_info(?1, 'main') ORDER BY seqno", [.text(name)]
                ) { statement in
                    while try statement.step(readingIndexes) {
                        if statement.int64(0) < 0 { plain = false } else { columns.append(statement.text(1)) }
                    }
                }
                guard plain, !columns.isEmpty else { continue }
                // Only indexes of attributes: one that covers the key column (the unique index on
                // the key of a table the store created is the key) or a generated column is not an
                // index of the items' attributes, as on PostgreSQL.
                guard let attributeColumns = schema.tables[table]?.columnIndex,
                      columns.allSatisfy({ attributeColumns[$0] != nil }) else { continue }
                schema.adoptedIndexes[table, default: []].append(
                    DataStoreIndex(itemType: table, attributes: columns, isUnique: unique, name: name))
            }
        }
    }

    /// The attribute list of a declared index: a binary-encoded, non-empty array of strings.
    static func decodeAttributes(_ bytes: [UInt8]) -> [String]? {
        guard case .array(let values)? = try? BinaryValueCoding.decode(bytes), !values.isEmpty else { return nil }
        let names = values.compactMap(\.stringValue)
        return names.count == values.count ? names : nil
    }

    /// The encoding of an attribute list in the table of declared indexes.
    static func encodeAttributes(_ names: [String]) -> [UInt8] {
        BinaryValueCoding.encode(.array(names.map(Value.string)))
    }
}
