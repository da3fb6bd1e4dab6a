import Foundation
import Persist

/// The file: a JSON array of items, each value in ``BinaryValueCoding`` as base64, so that every
/// value (NaN, -0.0, bytes, dates) survives exactly.
enum JSONFileFormat {
    private struct StoredItem: Codable {
        var type: String
        var id: String
        var attributes: [String: String]
    }

    static func encode(_ items: [Item]) throws -> Data {
        try JSONEncoder().encode(items.map { item in
            StoredItem(type: item.itemType, id: Data(BinaryValueCoding.encode(item.id.value)).base64EncodedString(),
                       attributes: item.attributes.mapValues { Data(BinaryValueCoding.encode($0)).base64EncodedString() })
        })
    }

    static func decode(_ data: Data) throws -> [Item] {
        try JSONDecoder().decode([StoredItem].self, from: data).map { stored in
            guard let idBytes = Data(base64Encoded: stored.id), let id = ItemID(identifierValue: try BinaryValueCoding.decode([UInt8](idBytes))) else {
                throw DataStoreError(.corrupt, "the identifier of an item of \(stored.type) is damaged")
            }
            var attributes: [String: Value] = [:]
            for (name, text) in stored.attributes {
                guard let bytes = Data(base64Encoded: text) else {
                    throw DataStoreError(.corrupt, "the attribute \(name) of an item of \(stored.type) is damaged")
                }
                attributes[name] = try BinaryValueCoding.decode([UInt8](bytes))
            }
            return Item(itemType: stored.type, id: id, attributes: attributes)
        }
    }
}
