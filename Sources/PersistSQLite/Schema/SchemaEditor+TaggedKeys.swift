import Persist
import PersistSQL

extension SchemaEditor {
    /// Makes the keys of a table the store created tagged, so that it can hold composite
    /// identifiers in ``ItemID``'s order (see ``TaggedKeyCodec``): every BLOB key gets the bytes
    /// tag before it, and the metadata table records the key column as tagged. Integer and text
    /// keys stay as they are.
    func tagKeys(of table: TableSchema, in schema: inout DatabaseSchema) throws -> TableSchema {
        let operation = "Letting table \(String(reflecting: table.name)) hold composite identifiers"
        let key = SQLName.quoted(DatabaseSchema.createdKeyColumn)
        var blobs: [[UInt8]] = []
        try connection.withStatement("SELECT \(key) FROM \(table.quoted) WHERE typeof(\(key)) = 'blob'") { statement in
            while try statement.step(operation) { blobs.append(statement.blob(0)) }
        }
        // Longest first: a tagged key is one byte longer, so the only untagged key it could equal
        // is longer than the key it comes from, and has been tagged already.
        blobs.sort { $0.count > $1.count }
        for blob in blobs {
            try connection.execute("UPDATE \(table.quoted) SET \(key) = ?1 WHERE \(key) = ?2",
                                   [TaggedKeyCodec.binding(.bytes(blob)), .blob(blob)], operation: operation)
        }
        let metadata = try metadataTable(in: &schema)
        try connection.execute(
            "INSERT OR REPLACE INTO \(metadata) (table_name, column_name, kind) VALUES (?1, ?2, ?3)",
            [.text(table.name), .text(DatabaseSchema.createdKeyColumn), .text(DatabaseSchema.taggedKeysKind)],
            operation: operation)
        try markSchemaChanged(operation: operation)
        let tagged = table.taggingKeys()
        schema.tables[table.name] = tagged
        return tagged
    }
}
