import Foundation
import Persist

/// The bytes of ``GDBMDataStore``'s native layout and journal, as documented in
/// <doc:GDBMFileFormat>, for tools that read or check such files without opening a store.
///
/// Every decoder here checks every byte: malformed input throws `DataStoreError.Code.corrupt`
/// (or `DataStoreError.Code.unsupported` for data written by a newer format), never traps.
///
/// ```swift
/// let key = try GDBMStorageFormat.encodeKey(itemType: "Restaurant", id: "r1")
/// let record = try GDBMStorageFormat.encodeRecord(["name": "Pizza Place", "rating": 4])
/// let reference = try GDBMStorageFormat.decodeKey(key)          // Restaurant/"r1"
/// let attributes = try GDBMStorageFormat.decodeRecord(record)   // ["name": …, "rating": 4]
/// ```
public enum GDBMStorageFormat {
    /// The newest file format version this code reads: version 2 adds indexes (the index catalog
    /// and entries), version 3 relations (the relation record). A new file is version 1; the
    /// commit that declares its first index raises it to ``indexedFormatVersion``, and the one
    /// that declares its first relation to ``relationFormatVersion``, so that older readers, which
    /// would not keep its indexes up to date or its references whole, refuse it.
    public static let formatVersion: UInt64 = 3

    /// The format version of a file that holds indexes.
    public static let indexedFormatVersion: UInt64 = 2

    /// The format version of a file that holds relations (and may hold indexes).
    public static let relationFormatVersion: UInt64 = 3

    /// The version byte that starts every record this code writes.
    public static let recordVersion: UInt8 = NativeRecordCodec.version

    /// The key of the format record: `0x00` followed by the ASCII bytes `format`.
    public static let metadataKey: [UInt8] = NativeKeyCodec.metadataKey

    /// The ASCII bytes that start the format record's value.
    public static let metadataMagic: [UInt8] = Array("persist-gdbm".utf8)

    /// The format record's value of a new file (version 1): the magic bytes and a varint version.
    public static var metadataValue: [UInt8] {
        metadataValue(version: 1)
    }

    /// The format record's value for `version`.
    ///
    /// ```swift
    /// let indexed = GDBMStorageFormat.metadataValue(version: GDBMStorageFormat.indexedFormatVersion)
    /// ```
    public static func metadataValue(version: UInt64) -> [UInt8] {
        var value = metadataMagic
        BinaryValueCoding.appendVarint(version, to: &value)
        return value
    }

    /// The key of the index catalog: `0x00` followed by the ASCII bytes `indexes`.
    ///
    /// ```swift
    /// assert(GDBMStorageFormat.indexCatalogKey == [0x00] + Array("indexes".utf8))
    /// ```
    public static let indexCatalogKey: [UInt8] = GDBMIndexFormat.catalogKey

    /// The indexes an index catalog's value declares, with the numbers their entries carry.
    ///
    /// ```swift
    /// for (number, index) in try GDBMStorageFormat.decodeIndexCatalog(value) { print(number, index) }
    /// ```
    ///
    /// - Throws: `DataStoreError.Code.corrupt` for malformed bytes, `DataStoreError.Code.unsupported`
    ///   for a version byte above 1 (written by a newer format).
    public static func decodeIndexCatalog(_ value: [UInt8]) throws -> [(number: UInt64, index: DataStoreIndex)] {
        try GDBMIndexFormat.decodeCatalog(value).map { ($0.number, $0.index) }
    }

    /// The key of the relation record: `0x00` followed by the ASCII bytes `relations`.
    ///
    /// ```swift
    /// assert(GDBMStorageFormat.relationRecordKey == [0x00] + Array("relations".utf8))
    /// ```
    public static let relationRecordKey: [UInt8] = GDBMRelationFormat.key

    /// The relation record's value declaring `relations`, in that order.
    ///
    /// ```swift
    /// let value = try GDBMStorageFormat.encodeRelationRecord([
    ///     DataStoreRelation(itemType: "Track", attributes: ["albumId"], relatedType: "Album", onDelete: .cascade),
    /// ])
    /// ```
    ///
    /// - Throws: `DataStoreError.Code.invalidArgument` for a relation whose delete rule is an
    ///   engine's own action (`DataStoreRelation.DeleteRule.engineAction`), which a GDBM
    ///   file cannot keep.
    public static func encodeRelationRecord(_ relations: [DataStoreRelation]) throws -> [UInt8] {
        if let relation = relations.first(where: { GDBMRelationFormat.RuleByte($0.onDelete) == nil }) {
            throw GDBMRelationFormat.engineActionRefused(relation)
        }
        return GDBMRelationFormat.encode(relations)
    }

    /// The relations a relation record's value declares, in the order they were declared.
    ///
    /// ```swift
    /// for relation in try GDBMStorageFormat.decodeRelationRecord(value) { print(relation) }
    /// ```
    ///
    /// - Throws: `DataStoreError.Code.corrupt` for malformed bytes, `DataStoreError.Code.unsupported`
    ///   for a version byte above 1 (written by a newer format).
    public static func decodeRelationRecord(_ value: [UInt8]) throws -> [DataStoreRelation] {
        try GDBMRelationFormat.decode(value)
    }

    /// The key of the entry of index `number` for the items whose values of the index's attributes
    /// equal `values` (as predicates compare them: `1` and `1.0` share an entry).
    ///
    /// ```swift
    /// let key = GDBMStorageFormat.indexEntryKey(number: 1, values: ["Leeds"])
    /// ```
    public static func indexEntryKey(number: UInt64, values: [Value]) -> [UInt8] {
        GDBMIndexFormat.entryKey(number, tuple: IndexKey.encode(values))
    }

    /// The identifiers an index entry's value lists.
    ///
    /// ```swift
    /// let ids = try GDBMStorageFormat.decodeIndexEntry(value)   // [1, 3]
    /// ```
    ///
    /// - Throws: `DataStoreError.Code.corrupt` for malformed bytes, `DataStoreError.Code.unsupported`
    ///   for a version byte above 1 (written by a newer format).
    public static func decodeIndexEntry(_ value: [UInt8]) throws -> [ItemID] {
        try value.withUnsafeBytes { raw in
            try GDBMIndexFormat.decodeEntry(raw).map { identifier in
                try identifier.withUnsafeBytes { try NativeKeyCodec.decodeID($0, from: 0) }
            }
        }
    }

    /// The format version a format record's value names.
    ///
    /// - Throws: `DataStoreError.Code.corrupt` when the value is not a format record.
    public static func decodeMetadataValue(_ value: [UInt8]) throws -> UInt64 {
        try value.withUnsafeBytes { bytes in
            guard bytes.starts(with: metadataMagic) else {
                throw DataStoreError(.corrupt, "the format record does not start with \"persist-gdbm\"")
            }
            var reader = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[metadataMagic.count...]))
            let version = try reader.readVarint()
            try reader.expectEnd()
            guard version > 0 else { throw DataStoreError(.corrupt, "the format record names version 0") }
            return version
        }
    }

    /// The native key of an item.
    ///
    /// - Throws: `DataStoreError.Code.invalidArgument` for an empty type name or one containing NUL.
    public static func encodeKey(itemType: String, id: ItemID) throws -> [UInt8] {
        try NameRules.validateItemType(itemType)
        return NativeKeyCodec.key(itemType: itemType, id: id)
    }

    /// The item a native key names, or `nil` for a reserved key (one starting with `0x00`).
    public static func decodeKey(_ key: [UInt8]) throws -> ItemReference? {
        try key.withUnsafeBytes { try NativeKeyCodec.decode($0) }
    }

    /// The native record of an item's attributes (null values are left out).
    ///
    /// - Throws: `DataStoreError.Code.invalidArgument` for an empty attribute name or one containing NUL.
    public static func encodeRecord(_ attributes: [String: Value]) throws -> [UInt8] {
        var record: [UInt8] = []
        try NativeRecordCodec.encode(attributes, into: &record)
        return record
    }

    /// Every attribute of a native record.
    public static func decodeRecord(_ record: [UInt8]) throws -> [String: Value] {
        try record.withUnsafeBytes { try NativeRecordCodec.decode($0) }
    }

    /// One attribute of a native record, decoding no other value (what queries do); `nil` when the
    /// record has no such attribute. The record's structure is checked first.
    public static func decodeAttribute(_ name: String, inRecord record: [UInt8]) throws -> Value? {
        try record.withUnsafeBytes { bytes in
            try NativeRecordCodec.validate(bytes)
            return try NativeRecordCodec.lookup(name, in: bytes)
        }
    }

    /// Refuses a key or record larger than GDBM's datum size (a C `int`) can hold: 2 GiB − 1
    /// bytes. A write block is checked before its journal is written, so an oversized record
    /// fails its block and never a replay.
    ///
    /// - Throws: `invalidArgument` naming the size and the file.
    package static func checkDatumSize(_ count: Int, path: String) throws {
        guard count <= Int(Int32.max) else {
            throw DataStoreError(.invalidArgument,
                                 "a key or record of \(count) bytes is larger than GDBM's limit of 2 GiB (file \(path))",
                                 path: path)
        }
    }

    /// The entries of a complete journal file.
    ///
    /// - Throws: `DataStoreError.Code.corrupt` for a torn or damaged journal (which a store
    ///   discards), `DataStoreError.Code.unsupported` for one written by a newer format.
    public static func decodeJournal(_ bytes: [UInt8]) throws -> [GDBMJournalEntry] {
        switch bytes.withUnsafeBytes({ JournalCodec.inspect($0) }) {
        case .complete(let entries):
            return entries
        case .torn(let reason):
            throw DataStoreError(.corrupt, "the journal is incomplete: \(reason)")
        case .newer(let version):
            throw DataStoreError(.unsupported,
                                 "the journal has format version \(version); this Persist reads version \(JournalCodec.version)")
        }
    }

    /// The journal file holding `entries`, as a store writes it.
    public static func encodeJournal(_ entries: [GDBMJournalEntry]) -> [UInt8] {
        JournalCodec.encode(entries)
    }
}
