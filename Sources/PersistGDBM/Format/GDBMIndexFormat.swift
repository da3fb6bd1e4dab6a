import Foundation
import Persist

/// One index kept in a native GDBM file: its number (which its entry keys carry) and declaration.
struct GDBMIndexDefinition: Sendable, Equatable {
    let number: UInt64
    let index: DataStoreIndex
}

/// The records of GDBM indexes (see the "GDBM storage format" article): the catalog under
/// `00 "indexes"`, and one entry per index and tuple of values under
/// `00 "x" · varint(number) · tuple key`, holding the identifiers of the items with those values.
enum GDBMIndexFormat {
    /// The version byte that starts the catalog and every entry.
    static let version: UInt8 = 1

    /// The key of the catalog.
    static let catalogKey: [UInt8] = [0x00] + Array("indexes".utf8)

    /// The bytes every entry key, of any index, starts with.
    static let entryMarker: [UInt8] = [0x00, UInt8(ascii: "x")]

    /// The bytes every entry key of index `number` starts with.
    static func entryPrefix(_ number: UInt64) -> [UInt8] {
        var key = entryMarker
        BinaryValueCoding.appendVarint(number, to: &key)
        return key
    }

    /// The key of the entry of index `number` for the values whose ``IndexKey`` is `tuple`.
    static func entryKey(_ number: UInt64, tuple: [UInt8]) -> [UInt8] {
        entryPrefix(number) + tuple
    }

    /// The index number an entry key carries.
    static func number(ofEntryKey key: [UInt8]) throws -> UInt64 {
        try key.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            guard try reader.readByte() == 0, try reader.readByte() == UInt8(ascii: "x") else {
                throw DataStoreError(.corrupt, "\(NativeKeyCodec.describe(raw)) is not an index entry key")
            }
            return try reader.readVarint()
        }
    }

    // MARK: The catalog

    static func encodeCatalog(_ definitions: [GDBMIndexDefinition]) -> [UInt8] {
        var bytes: [UInt8] = [version]
        BinaryValueCoding.appendVarint(UInt64(definitions.count), to: &bytes)
        for definition in definitions {
            BinaryValueCoding.appendVarint(definition.number, to: &bytes)
            BinaryValueCoding.appendLengthPrefixed(definition.index.itemType, to: &bytes)
            bytes.append(definition.index.isUnique ? 1 : 0)
            BinaryValueCoding.appendVarint(UInt64(definition.index.attributes.count), to: &bytes)
            for name in definition.index.attributes { BinaryValueCoding.appendLengthPrefixed(name, to: &bytes) }
        }
        return bytes
    }

    /// - Throws: `corrupt` for malformed bytes, `unsupported` for a newer version.
    static func decodeCatalog(_ bytes: [UInt8]) throws -> [GDBMIndexDefinition] {
        try bytes.withUnsafeBytes { raw in
            var reader = ByteReader(raw)
            try checkVersion(try reader.readByte(), "index catalog")
            let count = try reader.readLength(minimumBytesEach: 4)
            var definitions: [GDBMIndexDefinition] = []
            for _ in 0..<count {
                let number = try reader.readVarint()
                let itemType = try reader.readLengthPrefixedString()
                let flags = try reader.readByte()
                guard flags <= 1 else { throw DataStoreError(.corrupt, "an index in the index catalog has flags \(flags)") }
                let attributeCount = try reader.readLength(minimumBytesEach: 2)
                var attributes: [String] = []
                for _ in 0..<attributeCount { attributes.append(try reader.readLengthPrefixedString()) }
                // Numbers are given out from 1 upwards, one per index: a number of UInt32.max or
                // more can only be damage (and the number after it would be past what is read).
                guard number > 0, number < UInt64(UInt32.max), !itemType.isEmpty, !attributes.isEmpty,
                      !attributes.contains(where: \.isEmpty),
                      !definitions.contains(where: { $0.number == number })
                else {
                    throw DataStoreError(.corrupt, "the index catalog holds an index with number \(number), an empty name, "
                                            + "no attributes, or a number used twice")
                }
                definitions.append(GDBMIndexDefinition(
                    number: number, index: DataStoreIndex(itemType: itemType, attributes: attributes, isUnique: flags == 1)))
            }
            try reader.expectEnd()
            return definitions
        }
    }

    // MARK: Entries

    /// An entry's value: the identifiers (as the identifier part of item keys: tag and payload),
    /// in ascending byte order.
    static func encodeEntry(_ identifiers: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = [version]
        BinaryValueCoding.appendVarint(UInt64(identifiers.count), to: &bytes)
        for identifier in identifiers {
            BinaryValueCoding.appendVarint(UInt64(identifier.count), to: &bytes)
            bytes.append(contentsOf: identifier)
        }
        return bytes
    }

    /// - Throws: `corrupt` for malformed bytes, `unsupported` for a newer version.
    static func decodeEntry(_ raw: UnsafeRawBufferPointer) throws -> [[UInt8]] {
        var reader = ByteReader(raw)
        try checkVersion(try reader.readByte(), "index entry")
        let count = try reader.readLength(minimumBytesEach: 2)
        var identifiers: [[UInt8]] = []
        identifiers.reserveCapacity(count)
        for _ in 0..<count {
            let length = try reader.readLength()
            guard length > 0 else { throw DataStoreError(.corrupt, "an index entry holds an empty identifier") }
            identifiers.append(try reader.readBytes(length))
        }
        try reader.expectEnd()
        return identifiers
    }

    private static func checkVersion(_ found: UInt8, _ what: String) throws {
        if found == 0 { throw DataStoreError(.corrupt, "the \(what) has version 0, which is never written") }
        if found > version {
            throw DataStoreError(.unsupported, "the \(what) has format version \(found); this version of Persist reads "
                                    + "up to \(version); open the file with a newer Persist")
        }
    }
}

/// The indexes of one native GDBM file.
struct GDBMIndexCatalog: Sendable, Equatable {
    var definitions: [GDBMIndexDefinition] = []

    /// The definitions of `itemType`'s indexes, in declaration order.
    func definitions(ofType itemType: String) -> [GDBMIndexDefinition] {
        definitions.filter { $0.index.itemType.utf8.elementsEqual(itemType.utf8) }
    }

    /// The number the next index gets.
    var nextNumber: UInt64 { (definitions.map(\.number).max() ?? 0) + 1 }
}
