import Persist

/// Writes the rows of one entity type into a write block's working copy, as the transaction
/// writes their items.
final class JSONFileRowSink: EntityRowSink {
    private let transaction: JSONFileTransaction

    init(transaction: JSONFileTransaction) {
        self.transaction = transaction
    }

    func insert(_ row: EntityRow) throws {
        try transaction.insert(row.item())
        transaction.fastPaths.entityRowsWritten += 1
    }

    func save(_ row: EntityRow) throws {
        try transaction.save(row.item())
        transaction.fastPaths.entityRowsWritten += 1
    }

    func update(_ row: EntityRow) throws -> Bool {
        guard try transaction.item(ofType: row.plan.itemType, id: row.id) != nil else { return false }
        try save(row)
        return true
    }
}
