import Persist
import PersistSQL

extension PostgresWriter {
    /// One `DELETE` statement selecting exactly what `items(forRequest:)` selects. When PostgreSQL
    /// cannot evaluate the request exactly (a filter on a `json` column), the store selects the
    /// items and one `DELETE … WHERE key IN (…)` per 1,000 of them removes them. On a guarded
    /// table in a savepoint, so that a refusal by the table leaves the block going on, and
    /// checked for rows a trigger or rule kept (see ``guardedDelete(_:_:_:selected:operation:)``).
    func deleteItems(matching request: DataStoreRequest) throws -> Int {
        try checkTransaction()
        guard let table = schema.tables[request.itemType] else { return 0 }
        try refuseKeyless(table)
        let operation = "Deleting items of type \(String(reflecting: request.itemType))"
        let commands: [PGCommand]
        var selected: Int?
        if let query = PostgresDialect.delete(request, from: table) {
            guard !query.matchesNothing else { return 0 }
            commands = [PGCommand(query.sql, query.parameters, prepared: true, operation: operation)]
        } else {
            // Not prepared: each key count is another statement.
            let ids = try items(matching: request).map(\.id)
            selected = ids.count
            commands = PostgresDialect.delete(ids: ids, from: table).map {
                PGCommand($0.sql, $0.parameters, operation: operation)
            }
        }
        guard !commands.isEmpty else { return 0 }
        guard table.writes == .checked else { return try transaction.run(commands).reduce(0) { $0 + $1.affectedRows } }
        return try guardedDelete(commands, request, table, selected: selected, operation: operation)
    }

    /// One `UPDATE` statement, after adding or widening the columns the values need.
    ///
    /// On a guarded table (adopted, or with a unique index, a constraint, a trigger or a rule),
    /// whose declared types, triggers or constraints may refuse or change a value, the columns and
    /// the statement go in a savepoint, and the statement returns the rows it wrote. When the
    /// server refuses it, a row does not hold a value as given, or a trigger or rule skipped a
    /// selected row (fewer rows came back than the request selects), the savepoint is rolled back
    /// (the columns added for the values too) and the general path (each item saved and read back)
    /// runs instead, to name the item and the reason in its error.
    func updateItems(matching request: DataStoreRequest, setting values: [String: Value]) throws -> Int {
        try checkTransaction()
        guard let current = schema.tables[request.itemType] else { return 0 }
        try refuseKeyless(current)
        let operation = "Updating items of type \(String(reflecting: request.itemType))"
        guard current.writes == .checked else {
            return try updateInPlace(request, values, current, operation)
                ?? saveEach(matching: request, setting: values)
        }
        return try undoingRefusal(operation) { try updateInPlace(request, values, current, operation) }
            ?? saveEach(matching: request, setting: values)
    }

    /// The number of rows one `UPDATE` changed (one per 1,000 items the store selected, when
    /// PostgreSQL cannot evaluate the request exactly); `nil` when the values need the general
    /// path. On a guarded table, throws when a row does not hold a value as given.
    private func updateInPlace(_ request: DataStoreRequest, _ values: [String: Value], _ current: TableSchema,
                               _ operation: String) throws -> Int? {
        guard let table = try fitColumns(to: values, in: current) else { return nil }
        let dateOID = schema.dateTypeOID ?? 0
        var assignments: [(column: ColumnSchema, parameter: PGValue)] = []
        for name in values.keys.sorted(by: { ByteOrder.precedes($0, $1) }) {
            guard let value = values[name], let index = table.columnIndex[name] else { continue }
            let column = table.columns[index]
            if value.isNull {
                assignments.append((column, column.nullParameter))
            } else if let parameter = column.type.encode(value, persistDateOID: dateOID) {
                assignments.append((column, parameter))
            } else {
                return nil
            }
        }
        guard !assignments.isEmpty else { return try countItems(matching: request) }
        let queries: [CompiledQuery]
        let isPrepared: Bool
        var selected: Int?
        if let query = PostgresDialect.update(request, of: table, setting: assignments) {
            guard !query.matchesNothing else { return 0 }
            (queries, isPrepared) = ([query], true)
        } else {
            // Not prepared: each key count is another statement.
            let ids = try items(matching: request).map(\.id)
            (queries, isPrepared, selected) = (PostgresDialect.update(ids: ids, of: table, setting: assignments), false, ids.count)
        }
        guard current.writes == .checked else {
            let commands = queries.map { PGCommand($0.sql, $0.parameters, prepared: isPrepared, operation: operation) }
            return commands.isEmpty ? 0 : try transaction.run(commands).reduce(0) { $0 + $1.affectedRows }
        }
        // A trigger or rule may skip rows: the update must write every row it selects.
        let expected = try selected ?? countItems(matching: request)
        var updated = 0
        for query in queries {
            let result = try transaction.run([PGCommand(query.sql + " RETURNING \(table.selectList)", query.parameters,
                                                        prepared: isPrepared, operation: operation)])[0]
            try Self.verify(result, of: table, holding: values, location: location)
            updated += result.rowCount
        }
        // The general path saves each item, and names the one the table skipped.
        return updated == expected ? updated : nil
    }

    /// Runs `body` in a savepoint; when it is refused (the server or the store objects to the
    /// values) or gives `nil`, rolls the savepoint back with the schema (see
    /// ``inSchemaSavepoint(_:operation:_:)``) and gives `nil`: the caller's general path then
    /// names the item and the reason, or (an identity column given its own value) saves what the
    /// one statement could not. Failures of the circumstances (see ``isCircumstance(_:)``) are
    /// rethrown after the rollback.
    private func undoingRefusal(_ operation: String, _ body: () throws -> Int?) throws -> Int? {
        do {
            return try inSchemaSavepoint("persist_statement", operation: operation) {
                guard let count = try body() else { throw NeedsGeneralPath() }
                return count
            }
        } catch let error as DataStoreError where PostgresSession.isConnectionLoss(error) || Self.isCircumstance(error) {
            throw error
        } catch {
            return nil
        }
    }

    /// Whether the server failed the statement for reasons other than its values: a timeout or
    /// cancel (class 57), a lock not available (55), a deadlock or serialization failure (40),
    /// resources or limits (53, 54), a system or internal error (58, XX). Saving item by item
    /// would meet them again, or hide a timeout behind many shorter statements.
    private static func isCircumstance(_ error: DataStoreError) -> Bool {
        guard let code = error.engineCode, let state = PostgresSQLState(engineCode: code) else { return false }
        return ["40", "53", "54", "55", "57", "58", "XX"].contains(state.errorClass)
    }

    /// Throws when a row an `UPDATE … RETURNING *` wrote does not hold an assigned value as given
    /// (a trigger changed it, or a declared type such as `char(n)` padded it).
    private static func verify(_ result: PGResult, of table: TableSchema, holding values: [String: Value],
                               location: String) throws {
        let rows = try RowDecoder(table: table, result: result, location: location)
        let expected: [(offset: Int, value: Value?)] = values.compactMap { name, value in
            guard let offset = table.columnIndex[name] else { return nil }
            return (offset, value.isNull ? nil : table.columns[offset].type.stored(value))
        }
        for row in 0..<rows.rowCount {
            let id = try rows.identifier(row)
            for (offset, value) in expected where try rows.value(row, column: offset, id: id) != value {
                throw DataStoreError(.typeMismatch, "an updated row of table \(table.qualified) in PostgreSQL at "
                    + "\(location) does not hold its new value as given", path: location)
            }
        }
    }

    /// The table with a column that keeps each non-null value: columns added for new attributes,
    /// created columns widened; `nil` when a value needs what only the general path can say (a
    /// reserved attribute name, a column the store did not create).
    private func fitColumns(to values: [String: Value], in current: TableSchema) throws -> TableSchema? {
        var table = current
        let dateOID = schema.dateTypeOID ?? 0
        var planned: [SchemaEditor.PlannedColumn] = []
        for name in values.keys.sorted(by: { ByteOrder.precedes($0, $1) }) {
            guard let value = values[name], !value.isNull else { continue }
            if let index = table.columnIndex[name] {
                let column = table.columns[index]
                guard column.type.encode(value, persistDateOID: dateOID) == nil else { continue }
                guard column.isCreated, column.type != .mixed else { return nil }
                table = try editor.widen(columnAt: index, of: table, in: &schema)
                schemaChanges.append("let column \(column.quoted) of table \(table.qualified) hold values of every kind")
            } else if table.reservedAttributes[name] != nil {
                return nil
            } else if let kind = CreatedKind(for: value) {
                planned.append(SchemaEditor.PlannedColumn(attribute: name, kind: kind))
            }
        }
        if !planned.isEmpty {
            table = try editor.addColumns(planned, to: table, in: &schema)
            schemaChanges.append("added \(Self.describe(planned)) to table \(table.qualified)")
        }
        if table !== current, let materialized = try materializeIndexes(ofType: table.itemType) {
            // A unique index the new columns let PostgreSQL build makes the table guarded: its
            // update then takes the general path, which undoes a refused save in a savepoint.
            return materialized.writes == .checked && current.writes == .direct ? nil : materialized
        }
        return table
    }

    /// The general path of `updateItems`: each selected item saved with the values applied, all
    /// in one savepoint, so that a refused save (a unique index, a declared type) leaves every
    /// item as it was and the block can go on.
    private func saveEach(matching request: DataStoreRequest, setting values: [String: Value]) throws -> Int {
        let selected = try items(matching: request)
        let operation = "Updating items of type \(String(reflecting: request.itemType))"
        // The saves may add columns: a rollback takes them away, and the schema goes back with it.
        try inSchemaSavepoint("persist_update", operation: operation) {
            for item in selected { try save(item.setting(values)) }
        }
        return selected.count
    }
}

/// Thrown in a savepoint whose work the general path must do instead.
private struct NeedsGeneralPath: Error {}
