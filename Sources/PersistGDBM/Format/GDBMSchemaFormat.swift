import Persist

/// The record of table schemas in a native file (see the "GDBM storage format" article): under
/// the key `00 "schemas"`, the binary value encoding of an array of table descriptions, one per
/// item type that came from an adopted SQL table, so that a migration to an SQL store recreates it.
enum GDBMSchemaFormat {
    static let key: [UInt8] = [0x00] + Array("schemas".utf8)

    static func encode(_ descriptions: [TableDescription]) -> [UInt8] {
        BinaryValueCoding.encode(.array(descriptions.map(\.value)))
    }

    static func decode(_ bytes: [UInt8]) throws -> [TableDescription] {
        guard case .array(let values) = try BinaryValueCoding.decode(bytes) else {
            throw DataStoreError(.corrupt, "the schema record is not an array of table descriptions")
        }
        return try values.map { value in
            guard let description = TableDescription(value: value) else {
                throw DataStoreError(.corrupt, "the schema record holds something that is not a table description")
            }
            return description
        }
    }
}

extension GDBMReader: SchemaDescribingReader {
    /// The schemas the file carries, in the order they were recorded.
    func tableDescriptions() throws -> [TableDescription] {
        guard case .native = codec else { return [] }
        return try withRecord(GDBMSchemaFormat.key) { try GDBMSchemaFormat.decode(Array($0)) }?.map { $0 } ?? []
    }

    func describedTypes() throws -> [String] {
        try tableDescriptions().map(\.itemType)
    }

    func tableDescription(ofType itemType: String) throws -> TableDescription? {
        try tableDescriptions().first { $0.itemType == itemType }
    }
}

extension GDBMWriter: SchemaRecreatingWriter {
    /// Records the schema in the file, for a later migration to an SQL store; the items are stored
    /// as usual. `false` in the raw layout, or when the file already carries a schema for the type.
    func recreate(_ description: TableDescription) throws -> Bool {
        guard case .native = codec else { return false }
        let current = try tableDescriptions()
        guard !current.contains(where: { $0.itemType == description.itemType }) else { return false }
        changes[GDBMSchemaFormat.key] = .put(GDBMSchemaFormat.encode(current + [description]))
        return true
    }

    /// A GDBM file has no declared types, so no value ever needs a fallback.
    var columnFallbacks: [MigrationReport.Fallback] { [] }
}
