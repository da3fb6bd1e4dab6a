import Foundation
import Persist
import Testing

/// A model that keeps its keyed container, to decode its name only when asked.
final class LazyNote: DataStoreEntity, @unchecked Sendable {
    // @unchecked Sendable: every property is a `let`; the test reads each note on the thread that decoded it.
    static let itemType = "LazyNote"
    enum CodingKeys: String, CodingKey { case id, name }

    let id: Int
    private let container: KeyedDecodingContainer<CodingKeys>?
    private let given: String?

    init(id: Int, name: String) {
        self.id = id
        container = nil
        given = name
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        self.container = container
        given = nil
    }

    /// The name, decoded now from the kept container.
    func name() throws -> String {
        if let given { return given }
        guard let container else { return "" }
        return try container.decode(String.self, forKey: .name)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name(), forKey: .name)
    }
}

/// Entities whose models keep what decoding handed them.
enum EntityLifetimeTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("a container kept from a typed read fails with a DecodingError that says so; through items it works",
                        group: .entities) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor in
                try accessor.insert(LazyNote(id: 1, name: "first"))
                try accessor.insert(LazyNote(id: 2, name: "second"))
            }
            let all = try store.read { accessor in try accessor.getAll(LazyNote.self) }
            #expect(all.map(\.id) == [1, 2])
            do {
                _ = try all[0].name()
                Issue.record("a container kept from a typed read was read after init(from:)")
            } catch let error as DecodingError {
                guard case .dataCorrupted(let context) = error else { throw error }
                #expect(context.debugDescription.contains("after init(from:) returned"))
            }
            let general = try store.read { accessor in
                try accessor.items(forRequest: DataStoreRequest(itemType: LazyNote.itemType)).map(LazyNote.init(item:))
            }
            #expect(try general.map { try $0.name() } == ["first", "second"])
        },
    ]
}
