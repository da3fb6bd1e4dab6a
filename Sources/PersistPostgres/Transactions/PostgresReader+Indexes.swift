import Persist

extension PostgresReader {
    /// The adopted and declared indexes of the item type (see ``IndexCatalog``), as this block sees them.
    func indexes(ofType itemType: String) throws -> [DataStoreIndex]? {
        try refreshIfChanged()
        return try indexCatalog.indexes(ofType: itemType)
    }

    var indexCatalog: IndexCatalog {
        IndexCatalog(run: { try self.transaction.run($0) }, schema: schema)
    }
}
