import Persist

/// The writes' checks of a table's key: keyless tables are read only, and a composite key takes
/// only composite identifiers of its shape.
extension PostgresWriter {
    /// Refuses any write to a table without a primary key: its items' identifiers are row
    /// locations, which a write cannot keep.
    ///
    /// - Throws: ``DataStoreError/Code/unsupported`` naming the table and how to give it a key.
    func refuseKeyless(_ table: TableSchema, items: [ItemReference] = []) throws {
        guard table.rowKey.isKeyless else { return }
        throw DataStoreError(
            .unsupported,
            "the table \(table.qualified) in PostgreSQL at \(location) has no primary key, so Persist reads its rows "
                + "(identified by their row locations, which are not stable) but cannot write them; nothing was written. "
                + "Add a primary key to write it through Persist: ALTER TABLE \(table.qualified) ADD PRIMARY KEY (…)",
            path: location, items: items)
    }

    /// The error for an identifier a composite primary key cannot hold.
    func compositeKeyMismatch(_ item: Item, _ table: TableSchema) -> DataStoreError {
        let types = table.rowKey.columns.map { Self.describe($0.type) }.joined(separator: ", ")
        return DataStoreError(
            .typeMismatch,
            "the table \(table.qualified) in PostgreSQL at \(location) keeps its items under the composite primary key "
                + "\(table.rowKey.described) of types \(types), which cannot hold the identifier of \(item.reference); "
                + "give the item a composite identifier of \(table.rowKey.columns.count) components of those types, in "
                + "key order (ItemID(components: […]))",
            path: location, items: [item.reference])
    }
}
