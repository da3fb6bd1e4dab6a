import Foundation
import Persist
import PersistConformance
import Testing

@Suite("Entities that cannot be items say what they encode as")
struct EntityMessageTests {
    private struct Key: Codable, Hashable { var part: Int }
    private struct Keyed: DataStoreEntity { static let itemType = "Keyed"; var id: Key }
    private struct Flat: DataStoreEntity {
        static let itemType = "Flat"
        var id: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(id)
        }
        init(id: Int) { self.id = id }
        init(from decoder: any Decoder) throws { id = try decoder.singleValueContainer().decode(Int.self) }
    }

    /// A model whose coding keys have `Int` raw values, with a dictionary and an array.
    private struct Numbered: DataStoreEntity {
        static let itemType = "Numbered"
        var id: Int
        var name: String
        var stock: [String: Int]
        var sizes: [Int]
        var limit: UInt64
        enum CodingKeys: Int, CodingKey { case id, name, stock, sizes, limit }
    }

    @Test("a coding path names attributes and dictionary keys by name, and only array positions as [n]")
    func pathComponents() {
        let fine: [String: Value] = ["name": "n", "stock": ["42": 1], "sizes": [1], "limit": 1]
        func message(_ attributes: [String: Value]) -> String? {
            let item = Item(itemType: Numbered.itemType, id: 1, attributes: fine.merging(attributes) { $1 })
            return expectError(.typeMismatch) { try Numbered(item: item) }?.message
        }
        #expect(message(["name": 5])?.hasSuffix(": name: expected String, found int value 5") == true, "\(message(["name": 5]) ?? "")")
        let missing = expectError(.typeMismatch) {
            try Numbered(item: Item(itemType: Numbered.itemType, id: 1, attributes: ["stock": [:], "sizes": [], "limit": 1]))
        }
        #expect(missing?.message.hasSuffix(": name: missing") == true, "\(missing?.message ?? "")")
        let key = message(["stock": ["42": "x"]])
        #expect(key?.hasSuffix(": stock.42: expected Int, found string value \"x\"") == true, "\(key ?? "")")
        let position = message(["sizes": [1, "x"]])
        #expect(position?.hasSuffix(": sizes.[1]: expected Int, found string value \"x\"") == true, "\(position ?? "")")
        let stored = expectError(.typeMismatch) {
            try Numbered(id: 1, name: "n", stock: [:], sizes: [], limit: .max).makeItem()
        }
        #expect(stored?.message.contains("cannot be stored: limit: ") == true, "\(stored?.message ?? "")")
    }

    @Test("an identifier or an entity of the wrong kind is named with its article")
    func kindWithArticle() {
        let keyed = expectError(.typeMismatch) { try Keyed(id: Key(part: 1)).makeItem() }
        #expect(keyed?.message.contains("encodes as an object of 1 field") == true, "\(keyed?.message ?? "")")
        let flat = expectError(.typeMismatch) { try Flat(id: 1).makeItem() }
        #expect(flat?.message.contains("encodes as an int value") == true, "\(flat?.message ?? "")")
    }

    @Test("errors of typed reads and writes name the store, as the item path's do")
    func errorsNameTheStore() throws {
        let store = InMemoryDataStore()
        try store.setup()
        defer { try? store.tearDown() }
        let location = store.location
        var errors: [(String, DataStoreError?)] = []
        try store.writeSync { accessor in
            errors.append(("getAll(forRequest:) of another type", expectError(.invalidArgument) {
                try accessor.getAll(Numbered.self, forRequest: DataStoreRequest(itemType: "Other"))
            }))
            errors.append(("getById", expectError(.typeMismatch) { try accessor.getById(Keyed.self, id: Key(part: 1)) }))
            errors.append(("deleteById", expectError(.typeMismatch) { try accessor.deleteById(Keyed.self, id: Key(part: 1)) }))
            errors.append(("insert", expectError(.typeMismatch) { try accessor.insert(Flat(id: 1)) }))
            errors.append(("save", expectError(.typeMismatch) {
                try accessor.save(Numbered(id: 1, name: "n", stock: [:], sizes: [], limit: .max))
            }))
            errors.append(("update of nothing stored", expectError(.notFound) {
                try accessor.update(Numbered(id: 1, name: "n", stock: [:], sizes: [], limit: 1))
            }))
            errors.append(("synchronize of one id twice", expectError(.invalidArgument) {
                try accessor.synchronize([Numbered(id: 1, name: "a", stock: [:], sizes: [], limit: 1),
                                          Numbered(id: 1, name: "b", stock: [:], sizes: [], limit: 1)])
            }))
        }
        for (operation, error) in errors {
            #expect(error?.path == location, "\(operation): \(error.map(String.init(describing:)) ?? "no error")")
            #expect(error?.message.contains(location) == true, "\(operation): \(error?.message ?? "no error")")
        }
    }
}
