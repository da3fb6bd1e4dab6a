/// The schema of an item type as its store keeps it (the columns, declared types, key,
/// constraints and indexes of an adopted SQL table), described by a migration's source for a
/// target that can recreate it. Persist carries it from one store to the other without reading
/// it: the stores that describe schemas and those that recreate them agree on its form.
///
/// ```swift
/// if case .schema(let reshaped, let notes) = schema.reshaped(by: reshape) { … }
/// ```
package protocol CarriedSchema: Sendable {
    /// The item type whose items the schema holds.
    var itemType: String { get }

    /// The schema the items of this type take under the rules of `reshape` that name it, or why
    /// they take none.
    func reshaped(by reshape: MigrationReshape) -> ReshapedSchema
}

/// What the rules of a reshape make of a carried schema.
package enum ReshapedSchema: Sendable {
    /// The schema to recreate, with a sentence for each part the rules left out.
    case schema(any CarriedSchema, notes: [String])
    /// No schema is recreated: the target makes one from the items, as for a schemaless source.
    /// The sentence says why.
    case itemsOnly(String)
}
