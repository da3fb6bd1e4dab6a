import Persist
import PersistSQL

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

    /// The table recorded for `itemType`, loosened where the items, edited through the store since
    /// (GDBM checks no constraint), no longer meet it: a `NOT NULL` an item lacks, a `UNIQUE` two
    /// items share values in (see `TableRelaxation`), with a note on each. Reads the type's items
    /// once, and only when the record names the type and the table has such a constraint.
    func copySchema(ofType itemType: String) throws -> (schema: any CarriedSchema, notCarried: [String])? {
        guard let recorded = try tableDescriptions().first(where: { $0.itemType == itemType }) else { return nil }
        var relaxation = TableRelaxation(recorded)
        guard !relaxation.isSettled, let prefix = codec.prefix(for: itemType) else { return Self.carried(relaxation) }
        let codec = codec
        try scan(prefix: prefix, withRecords: true) { key, record in
            guard let record else { return true }
            try openFile.decoding(key: key) {
                let id = try codec.decodeID(key, prefixLength: prefix.count)
                try relaxation.observe(id: id) { try codec.lookup($0, in: record) }
            }
            return !relaxation.isSettled
        }
        return Self.carried(relaxation)
    }

    private static func carried(_ relaxation: TableRelaxation) -> (schema: any CarriedSchema, notCarried: [String]) {
        let (description, notCarried) = relaxation.result
        return (description, notCarried)
    }
}

extension GDBMWriter: SchemaRecreatingWriter {
    /// Records the schema in the file, for a later migration to an SQL store; the items are stored
    /// as usual. A schema the file carries for the type is replaced when the file holds no item of
    /// it (they were all deleted since), so that it never describes items it did not come with.
    /// `false` in the raw layout, for a schema that is no SQL table's, or when the file carries another
    /// schema for a type it holds items of.
    func recreate(_ carried: any CarriedSchema) throws -> Bool {
        guard case .native = codec, let description = carried as? TableDescription else { return false }
        var current = try tableDescriptions()
        if let index = current.firstIndex(where: { $0.itemType == description.itemType }) {
            guard current[index] != description else { return true }
            guard try !holdsKey(withPrefix: NativeKeyCodec.prefix(for: description.itemType)) else { return false }
            current[index] = description
        } else {
            current.append(description)
        }
        changes[GDBMSchemaFormat.key] = .put(GDBMSchemaFormat.encode(current))
        return true
    }

    /// A GDBM file has no declared types, so no value ever needs a fallback.
    var columnFallbacks: [MigrationReport.Fallback] { [] }
}
