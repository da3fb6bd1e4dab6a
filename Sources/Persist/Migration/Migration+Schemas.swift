extension Migration {
    /// The schemas of the source's adopted SQL tables that the target does not have, by item type,
    /// when the source can describe them (see <doc:SchemaFaithfulMigrations>).
    ///
    /// A run that transforms items may write items of any shape, so it recreates no table; a run
    /// that reshapes items recreates the tables of the types no rule names. The target creates
    /// the others from the items, as usual.
    func sourceDescriptions(of chosen: [String]?, skipping targetTypes: Set<String>) throws -> [String: TableDescription] {
        guard options.transform == nil else { return [:] }
        let reshaped = Set(options.reshape.rules.map(\.sourceType))
        return try source.read { accessor in
            guard let describing = accessor.reader as? any SchemaDescribingReader else { return [:] }
            var descriptions: [String: TableDescription] = [:]
            let wanted = chosen.map(Set.init)
            for itemType in try describing.describedTypes()
            where !targetTypes.contains(itemType) && !reshaped.contains(itemType) && wanted?.contains(itemType) ?? true {
                if let description = try describing.tableDescription(ofType: itemType) {
                    descriptions[itemType] = description
                }
            }
            return descriptions
        }
    }
}
