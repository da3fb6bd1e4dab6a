import Persist

/// Quoting of SQL identifiers (schema, table, column and channel names) for PostgreSQL.
package enum PGIdentifier {
    /// `name` in double quotes, with each `"` doubled, so that any name stays one identifier and
    /// keeps its case: `my "table"` becomes `"my ""table"""`.
    ///
    /// ```swift
    /// try connection.executeScript("CREATE SCHEMA \(PGIdentifier.quote(schema))")
    /// ```
    ///
    /// - Throws: `DataStoreError(.invalidArgument)` for an empty name, a NUL character, or more
    ///   than PostgreSQL's 63 bytes (which it would silently cut).
    package static func quote(_ name: String) throws -> String {
        if name.isEmpty { throw DataStoreError(.invalidArgument, "An SQL name is empty.") }
        if name.containsNUL {
            throw DataStoreError(.invalidArgument, "The SQL name \(name.debugDescription) contains a NUL character.")
        }
        if name.utf8.count > URLPartRules.maximumNameBytes {
            throw DataStoreError(.invalidArgument, "The SQL name \(name.debugDescription) is longer than "
                + "PostgreSQL's limit of \(URLPartRules.maximumNameBytes) bytes.")
        }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
