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

    @Test("an identifier or an entity of the wrong kind is named with its article")
    func kindWithArticle() {
        let keyed = expectError(.typeMismatch) { try Keyed(id: Key(part: 1)).makeItem() }
        #expect(keyed?.message.contains("encodes as an object value") == true, "\(keyed?.message ?? "")")
        let flat = expectError(.typeMismatch) { try Flat(id: 1).makeItem() }
        #expect(flat?.message.contains("encodes as an int value") == true, "\(flat?.message ?? "")")
    }
}
