import Persist
import PersistSQL

extension SQLiteWriter {
    /// Deletes one row of a table with triggers in a savepoint: a row that is still there after
    /// its `DELETE` was kept by a trigger (`RAISE(IGNORE)`), and the delete is refused, naming
    /// the item, rather than reported as a missing item.
    func deleteCheckingTriggers(_ table: TableSchema, _ bindings: [SQLBinding], _ reference: ItemReference) throws -> Bool {
        var deleted = false
        try inSavepoint {
            try run(table.deleteByKey, bindings, "Deleting \(reference)")
            deleted = connection.changes > 0
            if !deleted, try super.item(ofType: table.name, id: reference.id) != nil {
                throw skippedDelete(reference, table)
            }
        }
        return deleted
    }

    /// Runs a set-based `DELETE` on a table with triggers in a savepoint. When it deleted fewer
    /// rows than the request selects, every selected row is looked up: one still there was kept
    /// by a trigger, and the delete is refused, naming it, with nothing deleted. (Selected rows a
    /// trigger deleted itself are gone, and counted.)
    func deleteCheckingTriggers(_ query: CompiledQuery, _ request: DataStoreRequest, _ table: TableSchema) throws -> Int {
        let operation = "Deleting items of type \(String(reflecting: request.itemType))"
        var count = 0
        try inSavepoint {
            let selected = try selectedIdentifiers(request, in: table, operation: operation)
            try run(query.sql, query.parameters, operation)
            count = connection.changes
            guard count < selected.count else { return }
            for id in selected where try super.item(ofType: table.name, id: id) != nil {
                throw skippedDelete(ItemReference(itemType: request.itemType, id: id), table)
            }
            count = selected.count
        }
        return count
    }

    private func skippedDelete(_ reference: ItemReference, _ table: TableSchema) -> DataStoreError {
        DataStoreError(
            .invalidArgument,
            "SQLite did not delete \(reference) in table \(String(reflecting: table.name)) of the database at \(path): "
                + "a trigger of the table skipped the row; nothing was deleted. Leave the item out of the delete, "
                + "or change the table's triggers",
            path: path, items: [reference])
    }
}
