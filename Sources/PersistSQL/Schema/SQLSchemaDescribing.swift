import Persist

/// A reader of an SQL store that describes its adopted tables from its catalog.
package protocol SQLSchemaDescribing: SchemaDescribingReader {
    /// The schema of the table holding `itemType`, when it is an adopted table worth recreating
    /// (not one the store created for itself); `nil` otherwise.
    func tableDescription(ofType itemType: String) throws -> TableDescription?

    /// What the adopted table of `itemType` holds that a copy does not carry.
    func schemaNotCarried(ofType itemType: String) throws -> [String]
}

extension SQLSchemaDescribing {
    /// The description, then what it leaves behind.
    package func copySchema(ofType itemType: String) throws -> (schema: any CarriedSchema, notCarried: [String])? {
        guard let description = try tableDescription(ofType: itemType) else { return nil }
        return (description, try schemaNotCarried(ofType: itemType))
    }
}
