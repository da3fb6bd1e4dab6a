import Foundation
import Persist

/// Keys of the native layout: `varint(type byte count) · type UTF-8 · id tag · id payload`.
///
/// Item type names are never empty, so no item key starts with `0x00`; keys starting with `0x00`
/// are reserved for the store's own records, such as the format record (see the "GDBM storage
/// format" article of Persist's documentation).
enum NativeKeyCodec {
    /// The tag byte after the type name that says what kind of identifier follows.
    enum IDTag: UInt8 {
        /// 8 bytes, big-endian two's complement.
        case int = 0x01
        /// The identifier's UTF-8 bytes, to the end of the key.
        case string = 0x02
        /// The identifier's bytes, to the end of the key.
        case bytes = 0x03
        /// A composite identifier: the binary value encoding of the array of its components.
        case composite = 0x04
    }

    /// The key of the format record.
    static let metadataKey: [UInt8] = [0x00] + Array("format".utf8)

    /// The bytes every key of `itemType` starts with.
    static func prefix(for itemType: String) -> [UInt8] {
        var prefix: [UInt8] = []
        BinaryValueCoding.appendLengthPrefixed(itemType, to: &prefix)
        return prefix
    }

    /// The key of the item `id` given its type's prefix.
    static func key(prefix: [UInt8], id: ItemID) -> [UInt8] {
        var key = prefix
        switch id {
        case .int(let value):
            key.append(IDTag.int.rawValue)
            BinaryValueCoding.appendFixed64(UInt64(bitPattern: value), to: &key)
        case .string(var value):
            key.append(IDTag.string.rawValue)
            value.withUTF8 { key.append(contentsOf: $0) }
        case .bytes(let value):
            key.append(IDTag.bytes.rawValue)
            key.append(contentsOf: value)
        case .composite:
            key.append(IDTag.composite.rawValue)
            BinaryValueCoding.encode(id.value, into: &key)
        }
        return key
    }

    /// The key of the item of `itemType` with identifier `id`.
    static func key(itemType: String, id: ItemID) -> [UInt8] {
        key(prefix: prefix(for: itemType), id: id)
    }

    /// Decodes the identifier that starts at `offset` (just after the type name).
    static func decodeID(_ key: UnsafeRawBufferPointer, from offset: Int) throws -> ItemID {
        guard offset < key.count else { throw DataStoreError(.corrupt, "the key ends before its identifier tag") }
        let payload = UnsafeRawBufferPointer(rebasing: key[(offset + 1)...])
        switch IDTag(rawValue: key[offset]) {
        case .int:
            guard payload.count == 8 else {
                throw DataStoreError(.corrupt, "an integer identifier has \(payload.count) bytes instead of 8")
            }
            var reader = ByteReader(payload)
            return .int(Int64(bitPattern: try reader.readFixed64()))
        case .string:
            guard let string = ByteReader.validUTF8(payload) else {
                throw DataStoreError(.corrupt, "a string identifier is not valid UTF-8")
            }
            return .string(string)
        case .bytes:
            return .bytes([UInt8](payload))
        case .composite:
            guard let id = ItemID(identifierValue: try BinaryValueCoding.decode([UInt8](payload))), id.isComposite else {
                throw DataStoreError(.corrupt, "a composite identifier is not an array of two or more identifiers")
            }
            return id
        case nil:
            throw DataStoreError(.corrupt, "unknown identifier tag 0x\(String(key[offset], radix: 16))")
        }
    }

    /// The byte range of the type name in an item key, or `nil` for a reserved key (first byte `0x00`).
    static func typeName(in key: UnsafeRawBufferPointer) throws -> Range<Int>? {
        guard let first = key.first else { throw DataStoreError(.corrupt, "an empty key is not an item key") }
        if first == 0 { return nil }
        var reader = ByteReader(key)
        let count = try reader.readLength()
        guard count > 0 else { throw DataStoreError(.corrupt, "the key's type name is empty") }
        let start = reader.offset
        try reader.skip(count)
        return start..<(start + count)
    }

    /// Decodes a whole item key; `nil` for a reserved key.
    static func decode(_ key: UnsafeRawBufferPointer) throws -> ItemReference? {
        guard let range = try typeName(in: key) else { return nil }
        let nameBytes = UnsafeRawBufferPointer(rebasing: key[range])
        guard let itemType = ByteReader.validUTF8(nameBytes) else {
            throw DataStoreError(.corrupt, "the key's type name is not valid UTF-8")
        }
        guard !nameBytes.contains(0) else { throw DataStoreError(.corrupt, "the key's type name contains NUL") }
        return ItemReference(itemType: itemType, id: try decodeID(key, from: range.upperBound))
    }

    /// A short hexadecimal rendering of a key for messages.
    static func describe(_ key: UnsafeRawBufferPointer) -> String {
        let shown = key.prefix(48).map { String(format: "%02x", $0) }.joined()
        return "<" + shown + (key.count > 48 ? "…" : "") + ">"
    }
}
