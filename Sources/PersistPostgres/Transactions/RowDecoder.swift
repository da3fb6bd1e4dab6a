import Persist

/// Turns result rows of ``TableSchema/selectList`` into items.
struct RowDecoder {
    let table: TableSchema
    let result: PGResult
    let location: String

    /// A decoder for `result`, after checking that its columns are those the schema expects.
    ///
    /// - Throws: ``StaleSchema`` when another connection changed the table since the schema was
    ///   read (a column retyped), so the caller reads the schema again.
    init(table: TableSchema, result: PGResult, location: String) throws {
        self.table = table
        self.result = result
        self.location = location
        guard result.columnCount == table.columns.count + 1,
              result.columnType(0) == table.key.typeOID,
              table.columns.indices.allSatisfy({ result.columnType($0 + 1) == table.columns[$0].typeOID }) else {
            throw StaleSchema(table: table.itemType)
        }
    }

    var rowCount: Int { result.rowCount }

    /// The item in row `row`.
    func item(_ row: Int) throws -> Item {
        let id = try identifier(row)
        var attributes: [String: Value] = [:]
        attributes.reserveCapacity(table.columns.count)
        for (offset, column) in table.columns.enumerated() {
            do {
                let value = try result.withValue(row, offset + 1) { bytes in
                    try column.type.decode(bytes) { describe(column, id) }
                }
                if let value = value ?? nil { attributes[column.attribute] = value }
            } catch var error as DataStoreError where error.code == .corrupt {
                error.path = location
                error.items = [ItemReference(itemType: table.itemType, id: id)]
                throw error
            }
        }
        return Item(itemType: table.itemType, id: id, attributes: attributes)
    }

    /// The identifier in row `row`.
    func identifier(_ row: Int) throws -> ItemID {
        let id = try result.withValue(row, 0) { bytes in
            try table.key.type.decodeID(bytes) {
                "the key \(table.key.quoted) of a row of table \(table.qualified) in PostgreSQL at \(location)"
            }
        }
        guard let id else {
            throw DataStoreError(.corrupt, "a row of table \(table.qualified) in PostgreSQL at \(location) has NULL "
                + "as its key \(table.key.quoted)", path: location)
        }
        return id
    }

    private func describe(_ column: ColumnSchema, _ id: ItemID) -> String {
        "the column \(column.quoted) of item \(ItemReference(itemType: table.itemType, id: id)) in table "
            + "\(table.qualified) of PostgreSQL at \(location)"
    }
}

/// Thrown when a result does not have the columns the cached schema expects: the schema is read
/// again and the statement runs again.
struct StaleSchema: Error {
    let table: String
}
