import Persist

/// Migrations load the item types new to the store in bulk: each row is stored as it comes, with
/// no lookup first, and an identifier loaded twice is reported when the load finishes. The
/// transaction is a working copy, so a rollback takes the load back like any other write.
extension JSONFileTransaction: BulkLoadWriter {
    public func bulkInsert(_ rows: ArraySlice<ItemRow>) throws {
        for row in rows {
            let item = row.item
            if items.updateValue(item, forKey: item.reference) != nil { loadedTwice.append(item.reference) }
        }
        fastPaths.bulkInserted += rows.count
    }

    public func finishBulkLoad() throws {
        guard let first = loadedTwice.first else { return }
        throw DataStoreError(.alreadyExists, "\(first) was loaded twice", items: loadedTwice)
    }

    public var rollsBackBulkInserts: Bool { true }
}
