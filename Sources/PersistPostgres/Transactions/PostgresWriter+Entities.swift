import Persist

/// Typed writes bind entity rows, in plan order, straight into the binary parameters of the
/// table's prepared statements.
extension PostgresWriter: EntityRowWriting {
    func entityRowSink(forType itemType: String) -> any EntityRowSink {
        PostgresEntitySink(writer: self, itemType: itemType)
    }
}

/// Writes the rows of one entity type in one write block.
///
/// A row is bound to the table's `INSERT`, upsert or `UPDATE` when the table is one the store
/// created and writes without checking (not guarded), and has a column whose type keeps every
/// value of the row. Every other row takes the general path through its item, which creates
/// tables and columns, widens columns, checks adopted tables and reports errors.
final class PostgresEntitySink: EntityRowSink {
    private let writer: PostgresWriter
    private let itemType: String
    /// The layout used last, and its table: most rows of a block find them here, without the
    /// table's shared cache and its lock.
    private var layout: PostgresEntityLayout?
    private var layoutTable: TableSchema?

    init(writer: PostgresWriter, itemType: String) {
        self.writer = writer
        self.itemType = itemType
    }

    func insert(_ row: EntityRow) throws {
        guard let (table, parameters) = try bound(row) else { return try writer.insert(row.item()) }
        let result = try run(PGCommand(table.insertAll, parameters, prepared: true, operation: table.insertOperation), row)
        if result.affectedRows == 0 { throw writer.alreadyExists(row.item()) }
    }

    func save(_ row: EntityRow) throws {
        guard let (table, parameters) = try bound(row) else { return try writer.save(row.item()) }
        _ = try run(PGCommand(table.upsertAll, parameters, prepared: true, operation: table.saveOperation), row)
    }

    func update(_ row: EntityRow) throws -> Bool {
        guard let (table, parameters) = try bound(row), let update = table.updateAll else {
            return try GeneralEntitySink(writer: writer).update(row)
        }
        let operation = "Updating \(row.reference)"
        return try run(PGCommand(update, parameters, prepared: true, operation: operation), row).affectedRows > 0
    }

    /// The table and the row's parameters (the key, then each column in table order), or `nil`
    /// for the general path.
    private func bound(_ row: EntityRow) throws -> (TableSchema, [PGValue])? {
        try writer.checkTransaction()
        guard let table = writer.schema.tables[itemType], table.writes == .direct,
              let key = table.keyParameter(row.id) else { return nil }
        let layout: PostgresEntityLayout
        if let cached = self.layout, cached.plan === row.plan, layoutTable === table {
            layout = cached
        } else {
            layout = table.entityLayouts.layout(for: row.plan) { PostgresEntityLayout(plan: row.plan, table: table) }
            (self.layout, layoutTable) = (layout, table)
        }
        for slot in layout.slotsWithoutColumn where !row.values[slot].isNull { return nil }
        let dateOID = writer.schema.dateTypeOID ?? 0
        var parameters: [PGValue] = []
        parameters.reserveCapacity(table.columns.count + 1)
        parameters.append(key)
        for (offset, column) in table.columns.enumerated() {
            let slot = layout.slotOfColumn[offset]
            if slot < 0 || row.values[slot].isNull {
                parameters.append(column.nullParameter)
            } else {
                guard let parameter = column.type.encode(row.values[slot], persistDateOID: dateOID) else { return nil }
                parameters.append(parameter)
            }
        }
        return (table, parameters)
    }

    private func run(_ command: PGCommand, _ row: EntityRow) throws -> PGResult {
        do {
            return try writer.transaction.run([command])[0]
        } catch var error as DataStoreError where error.items.isEmpty {
            error.items = [row.reference]
            throw error
        }
    }
}
