import Persist
import PersistSQL

extension SQLiteWriter {
    /// One `DELETE` statement; on a table with triggers, checked for rows a trigger kept.
    func deleteItems(matching request: DataStoreRequest) throws -> Int {
        try checkTransaction()
        guard let table = schema.tables[request.itemType] else { return 0 }
        let query = try SQLiteDialect.delete(request, from: table)
        guard !query.matchesNothing else { return 0 }
        if table.hasTriggers { return try deleteCheckingTriggers(query, request, table) }
        try run(query.sql, query.parameters, "Deleting items of type \(String(reflecting: request.itemType))")
        return connection.changes
    }

    /// One `UPDATE` statement, after adding the columns the values need. Values that a legacy
    /// column's affinity could change are written in a savepoint and checked against what SQLite
    /// stored (every row receives the same value, so one row tells).
    func updateItems(matching request: DataStoreRequest, setting values: [String: Value]) throws -> Int {
        try checkTransaction()
        guard schema.tables[request.itemType] != nil else { return 0 }
        let (table, assignments) = try resolveAssignments(values, ofType: request.itemType)
        guard !assignments.isEmpty else { return try countItems(matching: request) }
        let query = try SQLiteDialect.update(request, of: table, setting: assignments)
        guard !query.matchesNothing else { return 0 }
        let operation = "Updating items of type \(String(reflecting: request.itemType))"
        let mayAlter = table.writes == .checked && (table.hasTriggers || assignments.contains { column, binding in
            ValueCodec.storageClass(binding).map(column.affinity.mayConvertOnStore) == true
        })
        do {
            if mayAlter {
                try updateChecked(query, request, assignments, values, table, operation)
            } else {
                try run(query.sql, query.parameters, operation)
            }
        } catch let error as DataStoreError where error.code == .uniqueViolation {
            throw try namingUniqueUpdate(error, request, values)
        } catch let error as DataStoreError where Self.isUnnamedRowConstraint(error) {
            throw namingRefusedUpdate(error, request, table, assignments)
        } catch var error as DataStoreError where error.code == .alreadyExists
                    && error.engineCode == SQLiteErrors.primaryKeyConstraint && table.key.isRowid {
            // Not an identifier (the rowid) but the table's PRIMARY KEY of other columns.
            error.code = .uniqueViolation
            throw try namingUniqueUpdate(error, request, values)
        }
        return connection.changes
    }

    /// Runs the update in a savepoint and reads updated rows back as a read would. (The values
    /// `RETURNING` gives are not those stored: it reports an integral REAL as an INTEGER.) Every
    /// row gets the same value, so one row tells what the columns' affinity does; a trigger may
    /// treat each row differently, so on a table with triggers every selected row is read back,
    /// and one whose value a trigger changed is refused, naming it, as a save of that item is. A
    /// value where the update gave none (a trigger stamping a column set to null) is the table's
    /// own, as for a save. A selected row the update did not return was skipped by a trigger
    /// (`RAISE(IGNORE)`): the update is refused, naming it, as a save of that item is.
    private func updateChecked(
        _ query: CompiledQuery, _ request: DataStoreRequest, _ assignments: [(column: ColumnSchema, parameter: SQLBinding)],
        _ values: [String: Value], _ table: TableSchema, _ operation: String
    ) throws {
        try inSavepoint {
            let selected = try selectedIdentifiers(request, in: table, operation: operation)
            let decoder = RowDecoder(table: table, path: path)
            var updated: Set<ItemID> = []
            try connection.withStatement(query.sql + " RETURNING \(table.key.sql)", query.parameters) { statement in
                while try statement.step(operation) { updated.insert(try decoder.identifier(statement)) }
            }
            if let skipped = selected.first(where: { !updated.contains($0) }) {
                let reference = ItemReference(itemType: request.itemType, id: skipped)
                throw DataStoreError(
                    .invalidArgument,
                    "SQLite did not update \(reference) in table \(String(reflecting: table.name)) of the database at \(path): "
                        + "a trigger of the table skipped the row; nothing was updated",
                    path: path, items: [reference])
            }
            for id in table.hasTriggers ? selected[...] : selected.prefix(1) {
                guard let stored = try super.item(ofType: table.name, id: id) else { continue }
                for (column, _) in assignments {
                    // A value where the update gave none is a trigger's: the table's own.
                    guard let expected = values[column.name], !expected.isNull else { continue }
                    let actual = stored.attributes[column.name]
                    guard actual != expected else { continue }
                    throw changedUpdate(expected, actual, column, table, ItemReference(itemType: request.itemType, id: id))
                }
            }
        }
    }

    /// The identifiers of the items `request` selects in `table`, in the request's order.
    func selectedIdentifiers(_ request: DataStoreRequest, in table: TableSchema, operation: String) throws -> [ItemID] {
        let decoder = RowDecoder(table: table, path: path)
        let selection = try SQLiteDialect.select(request, from: table, selecting: table.key.sql)
        var selected: [ItemID] = []
        try connection.withStatement(selection.sql, selection.parameters) { statement in
            while try statement.step(operation) { selected.append(try decoder.identifier(statement)) }
        }
        return selected
    }

    /// The refusal of an update one of whose rows does not hold `expected` but `actual`: the
    /// column's affinity changed it (for every row alike, so no item is named) or a trigger did
    /// (for the item named).
    private func changedUpdate(_ expected: Value, _ actual: Value?, _ column: ColumnSchema, _ table: TableSchema,
                               _ item: ItemReference) -> DataStoreError {
        let place = "in the column \(String(reflecting: column.name)) of table \(String(reflecting: table.name)) in the "
            + "database at \(path)"
        let advice = "; nothing was updated. Store the value in a form the column keeps, or under another attribute name"
        guard Self.affinityChanged(expected, into: actual) else {
            return DataStoreError(
                .typeMismatch,
                "SQLite would not keep \(Self.brief(expected)) as given \(place) for \(item): a trigger of the table "
                    + "turned it into \(actual.map(Self.brief) ?? "null")" + advice,
                path: path, items: [item])
        }
        return DataStoreError(
            .typeMismatch,
            "SQLite would not store \(Self.brief(expected)) as given \(place), which has "
                + "\(column.affinity.rawValue.uppercased()) affinity, but \(actual.map(Self.brief) ?? "null")" + advice,
            path: path)
    }

    /// Names the items of a refused update: two selected items that would share a unique index's
    /// values, or a selected item and an item left alone that holds them.
    private func namingUniqueUpdate(_ error: DataStoreError, _ request: DataStoreRequest,
                                    _ values: [String: Value]) throws -> DataStoreError {
        let updated = try items(matching: request).map { $0.setting(values) }
        let selected = Set(updated.map(\.id))
        for index in schema.indexes(ofType: request.itemType) where index.isUnique {
            if let violation = try UniqueIndexes.conflict(among: updated, selected: selected, for: index, in: self) {
                return UniqueIndexes.reported(violation, by: error, at: path)
            }
        }
        var named = error
        named.items = updated.prefix(10).map(\.reference)
        return named
    }
}
