import Persist

/// The migration's fast path on PostgreSQL: rows go to the server with binary
/// `COPY … FROM STDIN (FORMAT binary)` inside the write block's one transaction, so that a kill
/// at any moment leaves the target as it was (the transaction never committed) or complete.
///
/// Rows that fit their table's columns as they are are gathered (one slice at most, so memory
/// stays flat) and copied together; a row that needs a new table or column, a widened column or
/// key, or that goes to an adopted (guarded) table takes the general insert path, which changes
/// the schema as ``insert(_:)`` does, and the rows after it are copied again.
extension PostgresWriter: BulkLoadWriter {
    func bulkInsert(_ rows: ArraySlice<ItemRow>) throws {
        try checkTransaction()
        var pending: [[PGValue]] = []
        pending.reserveCapacity(rows.count)
        var pendingTable: TableSchema?
        var shape: (names: AttributeNames, table: TableSchema, columns: [Int])?
        func flush() throws {
            guard let table = pendingTable, !pending.isEmpty else { return }
            try copy(pending, into: table)
            pending.removeAll(keepingCapacity: true)
        }
        let dateOID = schema.dateTypeOID ?? 0
        for row in rows {
            if var table = schema.tables[row.itemType], !table.isGuarded || isRecreated(table),
               let key = table.key.type.encodeID(row.id) {
                if shape == nil || shape?.names !== row.names || shape?.table !== table {
                    shape = (row.names, table, row.names.names.map { table.columnIndex[$0] ?? -1 })
                }
                if let columns = shape?.columns,
                   let values = Self.copyValues(key, row, columns: columns, table: table, dateOID: dateOID) {
                    if pendingTable !== table {
                        try flush()
                        pendingTable = table
                    }
                    pending.append(values)
                    continue
                }
                if isRecreated(table) {
                    try flush()
                    pendingTable = nil
                    if try fallBack(for: row, in: table), let widened = schema.tables[row.itemType] {
                        table = widened
                        let columns = row.names.names.map { table.columnIndex[$0] ?? -1 }
                        shape = (row.names, table, columns)
                        if let values = Self.copyValues(key, row, columns: columns, table: table, dateOID: dateOID) {
                            pendingTable = table
                            pending.append(values)
                            continue
                        }
                    }
                }
            }
            try flush()
            pendingTable = nil
            try insert(row.item)
        }
        try flush()
    }

    /// The key, then every column of `table` in table order (NULL where the row has no value);
    /// `nil` when a value has no column or does not fit its column as it is.
    private static func copyValues(_ key: PGValue, _ row: ItemRow, columns: [Int], table: TableSchema, dateOID: UInt32)
        -> [PGValue]? {
        var values = [PGValue](repeating: .null, count: table.columns.count + 1)
        values[0] = key
        for (position, value) in row.values.enumerated() {
            let index = columns[position]
            guard index >= 0, let encoded = table.columns[index].type.encode(value, persistDateOID: dateOID) else {
                return nil
            }
            values[index + 1] = encoded
        }
        return values
    }

    /// `COPY table (key, columns…) FROM STDIN (FORMAT binary)` of `rows`, out of pipeline mode for
    /// the COPY and back in afterwards, in the block's transaction.
    private func copy(_ rows: [[PGValue]], into table: TableSchema) throws {
        let names = ([table.key.quoted] + table.columns.map(\.quoted)).joined(separator: ", ")
        let sql = "COPY \(table.qualified) (\(names)) FROM STDIN (FORMAT binary)"
        let session = transaction.session
        try session.owning {
            let connection = session.connection
            do {
                try connection.exitPipelineMode()
                defer { try? connection.enterPipelineMode() }
                try connection.copyIn(sql, rows: rows)
            } catch let error as DataStoreError {
                if transaction.failure == nil { transaction.failure = error }
                throw error
            }
        }
    }

    /// Builds the secondary indexes of recreated tables; nothing else is deferred (the key of a
    /// table is its primary key, checked as rows arrive).
    func finishBulkLoad() throws {
        try createRecreatedIndexes()
    }

    /// The rows are in the block's transaction: a rollback undoes them.
    var rollsBackBulkInserts: Bool { true }
}

extension PostgresEngine: BulkLoadingEngine {
    func bulkWrite<T>(_ body: (any BulkLoadWriter) throws -> (value: T, commit: Bool)) throws -> T {
        try write { writer in
            guard let bulk = writer as? any BulkLoadWriter else {
                throw DataStoreError(.misuse, "the PostgreSQL store at \(location) gave a writer that cannot load in bulk",
                                     path: location)
            }
            return try body(bulk)
        }
    }
}
