extension Migration {
    /// The schemas of the source's adopted SQL tables that the target does not have, by item type,
    /// when the source can describe them (see <doc:SchemaFaithfulMigrations>).
    ///
    /// A run that reshapes or transforms items writes items of another shape than the tables
    /// describe, so it recreates none: the target creates its tables from the items, as usual.
    func sourceDescriptions(of chosen: [String]?, skipping targetTypes: Set<String>) throws -> [String: TableDescription] {
        guard options.reshape.isEmpty, options.transform == nil else { return [:] }
        return try source.read { accessor in
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
