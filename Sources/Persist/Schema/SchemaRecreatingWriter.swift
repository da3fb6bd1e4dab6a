/// A writer that recreates a carried schema before a ``Migration`` loads its items (see
/// <doc:SchemaFaithfulMigrations>).
///
/// A writer opts in by conforming: ``StoreWriter/schemaRecreating`` then answers the writer itself.
///
/// ```swift
/// extension MyWriter: SchemaRecreatingWriter {
///     func recreate(_ schema: any CarriedSchema) throws -> Bool { … }
///     var columnFallbacks: [MigrationReport.Fallback] { [] }
/// }
/// ```
public protocol SchemaRecreatingWriter: StoreWriter {
    /// Creates the table of `schema` (translating declared types for its engine), so that the
    /// items that follow are loaded into it; secondary indexes are built after the load. Returns
    /// `false` when the type already has a table, which is then left as it is, or when the schema
    /// is of a form the writer does not know. Called again for each later write block of the same
    /// load, so that each writer knows the table's declared types and can fall back.
    ///
    /// ```swift
    /// let made = try writer.schemaRecreating?.recreate(schema) ?? false
    /// ```
    func recreate(_ schema: any CarriedSchema) throws -> Bool

    /// The columns whose declared type gave way to a lossless fallback so far, because a value did
    /// not fit it.
    ///
    /// ```swift
    /// for fallback in recreating.columnFallbacks { print(fallback.column, fallback.fallbackType) }
    /// ```
    var columnFallbacks: [MigrationReport.Fallback] { get }
}

extension SchemaRecreatingWriter {
    /// The writer itself: conforming is opting in.
    public var schemaRecreating: (any SchemaRecreatingWriter)? { self }
}
