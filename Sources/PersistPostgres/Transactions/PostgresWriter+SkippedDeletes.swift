import Persist
import PersistSQL

/// Deletes from guarded tables, whose triggers (a `BEFORE DELETE … FOR EACH ROW` trigger
/// returning `NULL`) or rules (`DO INSTEAD NOTHING`) may keep a row a `DELETE` selects. A kept
/// row is refused with `invalidArgument` naming the item, in a savepoint, so that nothing is
/// deleted and the block can go on, rather than reported as a missing item or a smaller count.
extension PostgresWriter {
    /// Deletes one row of a guarded table in a savepoint; when no row went, a lookup of the key
    /// tells a missing item (`false`) from a row the table kept (refused).
    func guardedDelete(_ table: TableSchema, key: PGValue, _ reference: ItemReference) throws -> Bool {
        let operation = "Deleting \(reference)"
        let command = PGCommand(table.deleteByKey, [key], prepared: true, operation: operation)
        return try inSavepoint(reference, command) { result in
            guard result.affectedRows == 0 else { return }
            let lookup = PGCommand(table.selectByKey, [key], prepared: true, operation: operation)
            if try transaction.run([lookup])[0].rowCount > 0 { throw skippedDelete(reference, table) }
        }.affectedRows > 0
    }

    /// Runs a set-based `DELETE` on a guarded table in a savepoint, with the count of what the
    /// request selects (`selected`, or counted in the same round trip). When fewer rows went,
    /// the savepoint is rolled back and each selected item is deleted on its own, to name the
    /// one the table keeps; when none is kept (a trigger deleted selected rows itself), every
    /// selected item is gone and counted.
    func guardedDelete(_ commands: [PGCommand], _ request: DataStoreRequest, _ table: TableSchema,
                       selected: Int?, operation: String) throws -> Int {
        do {
            return try inSchemaSavepoint("persist_statement", operation: operation) {
                // The count goes with the DELETE, in one round trip, when PostgreSQL can evaluate it.
                var count: PGCommand?
                if selected == nil, let query = PostgresDialect.count(request, from: table), !query.matchesNothing {
                    count = PGCommand(query.sql, query.parameters, prepared: true, operation: operation)
                }
                var results = try transaction.run((count.map { [$0] } ?? []) + commands)
                let expected = try count == nil ? selected ?? countItems(matching: request)
                    : Int(results.removeFirst().int64(0, 0) ?? 0)
                let deleted = results.reduce(0) { $0 + $1.affectedRows }
                guard deleted >= expected else { throw RowsKept() }
                return deleted
            }
        } catch is RowsKept {
            return try inSchemaSavepoint("persist_delete", operation: operation) {
                let ids = try items(matching: request).map(\.id)
                for id in ids {
                    guard let key = table.keyParameter(id) else { continue }
                    _ = try guardedDelete(table, key: key, ItemReference(itemType: request.itemType, id: id))
                }
                return ids.count
            }
        }
    }

    private func skippedDelete(_ reference: ItemReference, _ table: TableSchema) -> DataStoreError {
        DataStoreError(
            .invalidArgument,
            "PostgreSQL did not delete \(reference) in table \(table.qualified) at \(location): a trigger or rule of "
                + "the table skipped the row; nothing was deleted. Leave the item out of the delete, or change the "
                + "table's triggers or rules",
            path: location, items: [reference])
    }
}

/// Thrown in a savepoint whose `DELETE` removed fewer rows than the request selects.
private struct RowsKept: Error {}
