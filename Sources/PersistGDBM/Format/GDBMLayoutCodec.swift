import Foundation
import Persist

/// How items map to GDBM keys and values: the native layout (typed keys, versioned records) or the
/// raw layout (every pair is one item whose identifier and single attribute are the exact bytes).
enum GDBMLayoutCodec: Sendable {
    case native
    case raw(itemType: String, attribute: String)

    /// The bytes every key of `itemType` starts with; `nil` when the layout holds no such type.
    func prefix(for itemType: String) -> [UInt8]? {
        switch self {
        case .native:
            return NativeKeyCodec.prefix(for: itemType)
        case .raw(let rawType, _):
            return itemType.utf8.elementsEqual(rawType.utf8) ? [] : nil
        }
    }

    /// Whether a key found in the file with the right prefix is an item key (the native layout
    /// reserves keys starting with `0x00`; the raw layout has no reserved keys).
    func isItemKey(_ key: UnsafeRawBufferPointer) -> Bool {
        switch self {
        case .native: key.first.map { $0 != 0 } ?? false
        case .raw: true
        }
    }

    /// The key of an item, or `nil` when the layout cannot hold it (reads then find nothing).
    func key(for itemType: String, id: ItemID) -> [UInt8]? {
        switch self {
        case .native:
            return NativeKeyCodec.key(itemType: itemType, id: id)
        case .raw(let rawType, _):
            guard itemType.utf8.elementsEqual(rawType.utf8), case .bytes(let bytes) = id else { return nil }
            return bytes
        }
    }

    /// The key and record of an item to write.
    ///
    /// - Throws: `DataStoreError.Code.typeMismatch` when the raw layout cannot hold the item.
    func encode(_ item: Item, path: String) throws -> (key: [UInt8], record: [UInt8]) {
        switch self {
        case .native:
            var record: [UInt8] = []
            try NativeRecordCodec.encode(item.attributes, into: &record)
            return (NativeKeyCodec.key(itemType: item.itemType, id: item.id), record)
        case .raw(let rawType, let attribute):
            func mismatch(_ problem: String) -> DataStoreError {
                DataStoreError(.typeMismatch,
                               "\(item.reference) cannot be written to \(path) in the raw layout: \(problem). "
                                + "The raw layout holds only items of type \(String(reflecting: rawType)) with a .bytes "
                                + "identifier and at most one attribute, \(String(reflecting: attribute)), holding .bytes",
                               path: path, items: [item.reference])
            }
            guard item.itemType.utf8.elementsEqual(rawType.utf8) else { throw mismatch("its type is not the raw type") }
            guard case .bytes(let key) = item.id else {
                // A key of several columns has no one-key form: only the native layout holds it.
                throw mismatch(item.id.isComposite ? "its identifier is composite (\(item.id.components.count) values of a "
                                + "key over several columns), which only the native layout holds" : "its identifier is not .bytes")
            }
            var value: [UInt8] = []
            for (name, attributeValue) in item.attributes {
                guard name.utf8.elementsEqual(attribute.utf8) else {
                    throw mismatch("it has the attribute \(String(reflecting: name))")
                }
                guard case .bytes(let bytes) = attributeValue else {
                    throw mismatch("its \(String(reflecting: name)) attribute holds \(attributeValue.kind.withArticle) value")
                }
                value = bytes
            }
            return (key, value)
        }
    }

    /// Decodes the identifier of a key whose type prefix is `prefixLength` bytes long.
    func decodeID(_ key: UnsafeRawBufferPointer, prefixLength: Int) throws -> ItemID {
        switch self {
        case .native: try NativeKeyCodec.decodeID(key, from: prefixLength)
        case .raw: .bytes([UInt8](key))
        }
    }

    /// Checks a record's structure before lookups.
    func validate(_ record: UnsafeRawBufferPointer) throws {
        if case .native = self { try NativeRecordCodec.validate(record) }
    }

    /// One attribute of a validated record, decoding nothing else.
    func lookup(_ name: String, in record: UnsafeRawBufferPointer) throws -> Value? {
        switch self {
        case .native:
            return try NativeRecordCodec.lookup(name, in: record)
        case .raw(_, let attribute):
            return name.utf8.elementsEqual(attribute.utf8) ? .bytes([UInt8](record)) : nil
        }
    }

    /// The whole item stored under a key of `itemType` with identifier `id`.
    func decodeItem(itemType: String, id: ItemID, record: UnsafeRawBufferPointer) throws -> Item {
        switch self {
        case .native:
            return Item(itemType: itemType, id: id, attributes: try NativeRecordCodec.decode(record))
        case .raw(_, let attribute):
            return Item(itemType: itemType, id: id, attributes: [attribute: .bytes([UInt8](record))])
        }
    }

    /// The type name bytes of a key, or `nil` for keys that are not items.
    func typeName(of key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        switch self {
        case .native:
            return try NativeKeyCodec.typeName(in: key).map { UnsafeRawBufferPointer(rebasing: key[$0]) }
        case .raw:
            return nil
        }
    }

    /// The reference of a key, for messages about a damaged record.
    func reference(ofKey key: UnsafeRawBufferPointer) -> ItemReference? {
        switch self {
        case .native:
            return (try? NativeKeyCodec.decode(key)) ?? nil
        case .raw(let rawType, _):
            return ItemReference(itemType: rawType, id: .bytes([UInt8](key)))
        }
    }
}
