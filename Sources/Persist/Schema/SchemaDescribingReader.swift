/// A reader that can describe the schemas of its item types for a migration to carry.
package protocol SchemaDescribingReader: StoreReader {
    /// The item types it describes, found without reading any item.
    func describedTypes() throws -> [String]

    /// The schema of `itemType` for a copy, and what the copy does not carry (column defaults,
    /// CHECK constraints, foreign keys, triggers, partial indexes, …), each described for a note
    /// (`the trigger "posts_touch"`) so that a migration reports it rather than drop it silently;
    /// `nil` when the type has no schema worth recreating.
    func copySchema(ofType itemType: String) throws -> (schema: any CarriedSchema, notCarried: [String])?

    /// The columns of the tables of `itemTypes` (every table when `nil`) that hold values no item
    /// carries, each described for a message as `"table"."column"` and, in parentheses, why it is
    /// no attribute: a copy of the items would lose their values.
    func columnsOutsideItems(ofTypes itemTypes: [String]?) throws -> [String]
}

extension SchemaDescribingReader {
    /// No column outside the items: every column of an engine that can name no such column is an
    /// attribute or the key.
    package func columnsOutsideItems(ofTypes itemTypes: [String]?) throws -> [String] { [] }
}
