import Persist

/// Typed writes bind entity rows straight to the table's cached statements.
extension SQLiteWriter: EntityRowWriting {
    func entityRowSink(forType itemType: String) -> any EntityRowSink {
        SQLiteEntitySink(writer: self, itemType: itemType)
    }
}

/// Writes the rows of one entity type in one write transaction.
///
/// A row is bound in column order to the table's `INSERT`, upsert or `UPDATE` statement when the
/// table exists, has a column of the right kind for every value, and is one the store writes
/// without checking (see ``SQLiteEntityLayout/acceptsRows``). Every other row takes the general
/// path through its item, which creates tables and columns, widens columns, checks legacy
/// columns, and reports errors.
final class SQLiteEntitySink: EntityRowSink {
    private let writer: SQLiteWriter
    private let itemType: String
    /// The layout resolved last, the table it was resolved against, and the writer's schema
    /// change count then.
    private var resolved: (table: TableSchema, layout: SQLiteEntityLayout, schemaChanges: Int)?

    init(writer: SQLiteWriter, itemType: String) {
        self.writer = writer
        self.itemType = itemType
    }

    /// The table and layout a row may be bound with, or `nil` for the general path.
    private func target(for row: EntityRow) -> (table: TableSchema, layout: SQLiteEntityLayout)? {
        if let resolved, resolved.schemaChanges == writer.schemaChangeCount, resolved.layout.plan === row.plan {
            return resolved.layout.acceptsRows ? (resolved.table, resolved.layout) : nil
        }
        guard let table = writer.schema.tables[itemType] else { return nil }
        let layout = table.entityLayouts.layout(for: row.plan) { SQLiteEntityLayout(plan: row.plan, table: table) }
        resolved = (table, layout, writer.schemaChangeCount)
        return layout.acceptsRows ? (table, layout) : nil
    }

    func insert(_ row: EntityRow) throws {
        guard let (table, layout) = target(for: row), let key = table.keyValues(for: row.id) else {
            return try writer.insert(row.item())
        }
        if try run(table.insertAll, key, row, layout, "Inserting") { return }
        try writer.insert(row.item())
    }

    func save(_ row: EntityRow) throws {
        guard let (table, layout) = target(for: row), let upsert = table.upsert, let key = table.keyValues(for: row.id) else {
            return try writer.save(row.item())
        }
        if try run(upsert, key, row, layout, "Saving") { return }
        try writer.save(row.item())
    }

    func update(_ row: EntityRow) throws -> Bool {
        guard let (table, layout) = target(for: row), let update = table.update,
              let keyBindings = table.keyBindings(for: row.id),
              try run(update, keyBindings, row, layout, "Updating")
        else {
            return try GeneralEntitySink(writer: writer).update(row)
        }
        return writer.connection.changes > 0
    }

    /// Binds the key bindings, then the row in column order, and runs the statement; `false`
    /// (nothing stored) when the row needs the general path: a value the table cannot take as it
    /// is, or a constraint the row violates (an identifier or unique index values already
    /// stored), which the general path reports in its own words. A failed statement leaves the
    /// transaction open, so the general path runs in it.
    private func run(
        _ sql: String, _ keyBindings: [SQLBinding], _ row: EntityRow, _ layout: SQLiteEntityLayout, _ verb: String
    ) throws -> Bool {
        try writer.checkTransaction()
        do {
            return try writer.connection.withStatement(sql) { statement in
                for (offset, binding) in keyBindings.enumerated() {
                    try statement.bind(binding, at: Int32(offset + 1))
                }
                guard try layout.bind(row, to: statement, from: Int32(keyBindings.count + 1), through: writer.arena) else {
                    return false
                }
                while try statement.step("\(verb) \(row.reference)") {}
                return true
            }
        } catch let error as DataStoreError where error.code == .alreadyExists || error.code == .uniqueViolation {
            return false
        } catch var error as DataStoreError where error.items.isEmpty && error.engineCode != nil {
            error.items = [row.reference]
            throw error
        }
    }
}
