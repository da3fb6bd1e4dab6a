extension Migration {
    /// The schemas of the source's adopted SQL tables whose types the target does not have, by the
    /// item type the target receives, when the source can describe them (see
    /// <doc:SchemaFaithfulMigrations>), with sentences on what the reshape changed beyond names, and
    /// by target type, a sentence on what each table's copy does not carry (which a table the
    /// target already has, and keeps, makes moot).
    ///
    /// A run that decodes or transforms items may write items of any shape, so it recreates no
    /// table; a run that reshapes items recreates each table as its rules make it
    /// (``CarriedSchema/reshaped(by:)``). The target creates the others from the items, as usual.
    func sourceDescriptions(of chosen: [String]?, skipping targetTypes: Set<String>) throws
        -> (descriptions: [String: any CarriedSchema], notes: [String], notCarried: [(itemType: String, note: String)])
    {
        guard options.transform == nil, options.decode == nil else { return ([:], [], []) }
        return try source.read { accessor in
            guard let describing = accessor.reader.schemaDescribing else { return ([:], [], []) }
            var descriptions: [String: any CarriedSchema] = [:]
            var notes: [String] = []
            var notCarried: [(itemType: String, note: String)] = []
            let wanted = chosen.map(Set.init)
            for itemType in try describing.describedTypes()
            where !targetTypes.contains(options.reshape.targetType(of: itemType)) && wanted?.contains(itemType) ?? true {
                guard let (schema, leftBehind) = try describing.copySchema(ofType: itemType) else { continue }
                if !leftBehind.isEmpty {
                    notCarried.append((options.reshape.targetType(of: itemType),
                                       "the copy of \(String(reflecting: itemType)) does not carry "
                                        + leftBehind.joined(separator: ", ") + " (see the Schema-faithful migrations article)"))
                }
                switch schema.reshaped(by: options.reshape) {
                case .schema(let reshaped, let tableNotes):
                    descriptions[reshaped.itemType] = reshaped
                    notes += tableNotes
                case .itemsOnly(let reason):
                    notes.append(reason)
                }
            }
            return (descriptions, notes, notCarried)
        }
    }
}
