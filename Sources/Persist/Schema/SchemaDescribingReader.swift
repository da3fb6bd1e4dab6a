/// A reader that describes the schemas of its item types for a ``Migration`` to carry to a target
/// that recreates them (see <doc:SchemaFaithfulMigrations>).
///
/// A reader opts in by conforming: ``StoreReader/schemaDescribing`` then answers the reader itself.
///
/// ```swift
/// extension MyReader: SchemaDescribingReader {
///     func describedTypes() throws -> [String] { … }
///     func copySchema(ofType itemType: String) throws -> (schema: any CarriedSchema, notCarried: [String])? { … }
/// }
/// ```
public protocol SchemaDescribingReader: StoreReader {
    /// The item types it describes, found without reading any item.
    ///
    /// ```swift
    /// let described = try reader.schemaDescribing?.describedTypes() ?? []
    /// ```
    func describedTypes() throws -> [String]

    /// The schema of `itemType` for a copy, and what the copy does not carry (column defaults,
    /// CHECK constraints, foreign keys, triggers, partial indexes, …), each described for a note
    /// (`the trigger "posts_touch"`) so that a migration reports it rather than drop it silently;
    /// `nil` when the type has no schema worth recreating.
    ///
    /// ```swift
    /// if let (schema, notCarried) = try describing.copySchema(ofType: "Post") { print(schema.itemType, notCarried) }
    /// ```
    func copySchema(ofType itemType: String) throws -> (schema: any CarriedSchema, notCarried: [String])?

    /// The columns of the tables of `itemTypes` (every table when `nil`) that hold values no item
    /// carries, each described for a message as `"table"."column"` and, in parentheses, why it is
    /// no attribute: a copy of the items would lose their values.
    ///
    /// The default is none.
    ///
    /// ```swift
    /// let lost = try describing.columnsOutsideItems(ofTypes: nil)   // ["\"hosts\".\"addr\" (inet)"]
    /// ```
    func columnsOutsideItems(ofTypes itemTypes: [String]?) throws -> [String]
}

extension SchemaDescribingReader {
    /// No column outside the items: every column of an engine that can name no such column is an
    /// attribute or the key.
    public func columnsOutsideItems(ofTypes itemTypes: [String]?) throws -> [String] { [] }

    /// The reader itself: conforming is opting in.
    public var schemaDescribing: (any SchemaDescribingReader)? { self }
}
