/// A writer that can recreate a carried schema before a migration loads its items.
package protocol SchemaRecreatingWriter: StoreWriter {
    /// Creates the table of `schema` (translating declared types for its engine), so that the
    /// items that follow are loaded into it; secondary indexes are built after the load. Returns
    /// `false` when the type already has a table, which is then left as it is, or when the schema
    /// is of a form the writer does not know. Called again for each later write block of the same
    /// load, so that each writer knows the table's declared types and can fall back.
    func recreate(_ schema: any CarriedSchema) throws -> Bool

    /// The columns whose declared type gave way to a lossless fallback so far, because a value did
    /// not fit it.
    var columnFallbacks: [MigrationReport.Fallback] { get }
}
