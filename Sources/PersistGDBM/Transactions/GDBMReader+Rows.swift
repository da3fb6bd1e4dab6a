import Foundation
import Persist

/// Streaming rows for a migration: one pass over the file for every type, records decoded
/// without a dictionary per item (see ``NativeRowDecoder``).
extension GDBMReader: RowStreamingReader {
    func forEachRow(ofTypes types: Set<String>?, _ body: (ItemRow) throws -> Bool) throws {
        switch codec {
        case .raw(let rawType, let attribute):
            guard types?.contains(rawType) ?? true else { return }
            let names = AttributeNames(sorted: [attribute])
            try scan(prefix: [], withRecords: true) { key, record in
                guard let record else { return true }
                return try body(ItemRow(itemType: rawType, id: .bytes([UInt8](key)), names: names,
                                        values: [.bytes([UInt8](record))]))
            }
        case .native:
            var decoder = NativeRowDecoder()
            var lastType: (bytes: [UInt8], name: String?)?
            try scan(prefix: [], withRecords: true) { key, record in
                guard let record else { return true }
                let row = try openFile.decoding(key: key) { () -> ItemRow? in
                    guard let range = try NativeKeyCodec.typeName(in: key) else { return nil }
                    let typeBytes = UnsafeRawBufferPointer(rebasing: key[range])
                    if lastType == nil || !(lastType?.bytes.elementsEqual(typeBytes) ?? false) {
                        lastType = ([UInt8](typeBytes), try Self.typeName(typeBytes, wanted: types))
                    }
                    guard let itemType = lastType?.name else { return nil }
                    let id = try NativeKeyCodec.decodeID(key, from: range.upperBound)
                    let (names, values) = try decoder.decode(record)
                    return ItemRow(itemType: itemType, id: id, names: names, values: values)
                }
                return try row.map(body) ?? true
            }
        }
    }

    /// The type named by a key's type bytes, or `nil` when it is not one of `wanted`.
    private static func typeName(_ bytes: UnsafeRawBufferPointer, wanted: Set<String>?) throws -> String? {
        guard let name = ByteReader.validUTF8(bytes), !bytes.contains(0) else {
            throw DataStoreError(.corrupt, "the key's type name is not valid UTF-8 or contains NUL")
        }
        return wanted?.contains(name) ?? true ? name : nil
    }

    func countRows(ofTypes types: Set<String>?) throws -> (total: Int, perType: [String: Int]?) {
        switch codec {
        case .raw(let rawType, _):
            guard types?.contains(rawType) ?? true else { return (0, [:]) }
            let total = try openFile.handle.count()
            return (total, [rawType: total])
        case .native:
            if types == nil, !(self is GDBMWriter), indexCatalog.definitions.isEmpty {
                // Every record but the store's own (its keys start with 0x00; without indexes, only
                // the format and schema records): GDBM counts them from the bucket headers without
                // reading a key.
                let format = try withRecord(GDBMStorageFormat.metadataKey) { _ in 1 } ?? 0
                let schemas = try withRecord(GDBMSchemaFormat.key) { _ in 1 } ?? 0
                let reserved = format + schemas
                return (max(try openFile.handle.count() - reserved, 0), nil)
            }
            var counts: [String: Int] = [:]
            var lastType: (bytes: [UInt8], name: String?)?
            try scan(prefix: [], withRecords: false) { key, _ in
                try openFile.decoding(key: key) {
                    guard let range = try NativeKeyCodec.typeName(in: key) else { return }
                    let typeBytes = UnsafeRawBufferPointer(rebasing: key[range])
                    if lastType == nil || !(lastType?.bytes.elementsEqual(typeBytes) ?? false) {
                        lastType = ([UInt8](typeBytes), try Self.typeName(typeBytes, wanted: types))
                    }
                    if let itemType = lastType?.name { counts[itemType, default: 0] += 1 }
                }
                return true
            }
            return (counts.values.reduce(0, +), counts)
        }
    }
}
