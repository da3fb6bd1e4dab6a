/// The schema of an item type as its store keeps it (the columns, declared types, key,
/// constraints and indexes of an adopted SQL table), described by a migration's source for a
/// target that can recreate it. ``Migration`` carries it from one store to the other without
/// reading it: the stores that describe schemas and those that recreate them agree on its form,
/// and a target recreates only the forms it knows (the SQL stores of this package describe and
/// recreate PersistSQL's table descriptions, and a key-value file may keep them).
///
/// ```swift
/// if case .schema(let reshaped, let notes) = schema.reshaped(by: reshape) {
///     print(reshaped.itemType, notes)
/// }
/// ```
public protocol CarriedSchema: Sendable {
    /// The item type whose items the schema holds.
    ///
    /// ```swift
    /// let target = schemas.map(\.itemType)
    /// ```
    var itemType: String { get }

    /// The schema the items of this type take under the rules of `reshape` that name it, or why
    /// they take none.
    ///
    /// ```swift
    /// let reshape = MigrationReshape([.renameAttribute("titel", ofType: "Note", to: "title")])
    /// if case .itemsOnly(let why) = schema.reshaped(by: reshape) { print(why) }
    /// ```
    func reshaped(by reshape: MigrationReshape) -> ReshapedSchema

    /// Whether the items' identifiers only tell rows apart (a table with no key): a target may
    /// give them other identifiers, so verification compares such items without them.
    ///
    /// ```swift
    /// let keyless = schemas.filter(\.identifiersAreRowLocators).map(\.itemType)
    /// ```
    var identifiersAreRowLocators: Bool { get }
}

extension CarriedSchema {
    /// `false`: the identifiers are the items' own.
    public var identifiersAreRowLocators: Bool { false }
}

/// What the rules of a migration's reshape make of a carried schema.
///
/// ```swift
/// switch schema.reshaped(by: reshape) {
/// case .schema(let reshaped, let notes): print(reshaped.itemType, notes)
/// case .itemsOnly(let why): print(why)
/// }
/// ```
public enum ReshapedSchema: Sendable {
    /// The schema to recreate, with a sentence for each part the rules left out.
    case schema(any CarriedSchema, notes: [String])
    /// No schema is recreated: the target makes one from the items, as for a schemaless source.
    /// The sentence says why.
    case itemsOnly(String)
}
