internal import CSQLite
import Persist
import PersistSQL

/// Naming the item behind a constraint that refused a set-based update: SQLite reports which
/// `CHECK`, `NOT NULL` or foreign key failed, never which row.
extension SQLiteWriter {
    /// How many selected items a refused update tries one by one to find the one refused.
    private static let namingLimit = 10_000

    private static let naming = "Finding the item a constraint refused"

    /// Whether `error` is a constraint that a set-based update of a row can break for that row
    /// alone, without naming it: any constraint but a key or unique one (those are named otherwise).
    static func isUnnamedRowConstraint(_ error: DataStoreError) -> Bool {
        guard error.code == .invalidArgument, error.items.isEmpty, let code = error.engineCode else { return false }
        return code & 0xFF == Int(SQLITE_CONSTRAINT)
    }

    /// `error` naming the first selected item (in the request's order, among its first 10,000) whose
    /// own update the table refuses the same way: each is tried in a savepoint that is rolled back,
    /// so nothing of the tries stays. `error` as it is when none is found, or when looking fails
    /// otherwise (the search only adds a name to the error the update gave).
    func namingRefusedUpdate(
        _ error: DataStoreError, _ request: DataStoreRequest, _ table: TableSchema,
        _ assignments: [(column: ColumnSchema, parameter: SQLBinding)]
    ) -> DataStoreError {
        guard let refused = try? firstRefused(like: error, request, table, assignments) else { return error }
        var named = error
        named.message += " The table refuses the update of \(refused) (and maybe of other selected items); nothing was updated."
        named.items = [refused]
        return named
    }

    private func firstRefused(
        like error: DataStoreError, _ request: DataStoreRequest, _ table: TableSchema,
        _ assignments: [(column: ColumnSchema, parameter: SQLBinding)]
    ) throws -> ItemReference? {
        var window = request
        window.limit = min(request.limit ?? Self.namingLimit, Self.namingLimit)
        let selected = try selectedIdentifiers(window, in: table, operation: Self.naming)
        let first = table.key.parameterCount + 1
        let list = assignments.indices.map { "\(assignments[$0].column.quoted) = ?\(first + $0)" }.joined(separator: ", ")
        let update = "UPDATE OR ABORT \(table.quoted) SET \(list) WHERE \(table.keyCondition)"
        let values = assignments.map(\.parameter)
        try connection.execute("SAVEPOINT persist_naming", operation: Self.naming)
        defer {
            try? connection.execute("ROLLBACK TO persist_naming", operation: Self.naming)
            try? connection.execute("RELEASE persist_naming", operation: Self.naming)
        }
        for id in selected {
            guard let key = table.keyBindings(for: id) else { continue }
            do {
                try connection.execute(update, key + values, operation: Self.naming)
            } catch let tried as DataStoreError where tried.engineCode == error.engineCode {
                return ItemReference(itemType: request.itemType, id: id)
            }
        }
        return nil
    }
}
