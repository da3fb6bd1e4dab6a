extension Migration {
    /// The schemas of the source's adopted SQL tables that the target does not have, by item type,
    /// when the source can describe them (see <doc:SchemaFaithfulMigrations>).
    func sourceDescriptions(of chosen: [String]?, skipping targetTypes: Set<String>) throws -> [String: TableDescription] {
        try source.read { accessor in
            guard let describing = accessor.reader as? any SchemaDescribingReader else { return [:] }
            var descriptions: [String: TableDescription] = [:]
            let wanted = chosen.map(Set.init)
            for itemType in try describing.describedTypes()
            where !targetTypes.contains(itemType) && wanted?.contains(itemType) ?? true {
                if let description = try describing.tableDescription(ofType: itemType) {
                    descriptions[itemType] = description
                }
            }
            return descriptions
        }
    }
}
