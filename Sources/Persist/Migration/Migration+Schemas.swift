extension Migration {
    /// The schemas of the source's adopted SQL tables that the target does not have, by item type,
    /// when the source can describe them (see <doc:SchemaFaithfulMigrations>).
    func sourceDescriptions(of chosen: [String]?, skipping targetTypes: Set<String>) throws -> [String: TableDescription] {
        try source.read { accessor in
            guard let describing = accessor.reader as? any SchemaDescribingReader else { return [:] }
            var descriptions: [String: TableDescription] = [:]
            for itemType in try chosen ?? accessor.itemTypes() where !targetTypes.contains(itemType) {
                if let description = try describing.tableDescription(ofType: itemType) {
                    descriptions[itemType] = description
                }
            }
            return descriptions
        }
    }
}
