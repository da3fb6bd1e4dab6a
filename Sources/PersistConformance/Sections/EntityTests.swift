import Foundation
import Persist
import Testing

/// A model using every Codable feature typed entities support.
struct Venue: DataStoreEntity, Equatable {
    static let itemType = "Venue"

    enum Kind: String, Codable { case restaurant, takeaway }

    struct Address: Codable, Equatable {
        var street: String
        var city: String
        var location: [Double]
    }

    struct Opening: Codable, Equatable {
        var day: Int8
        var from: UInt16
        var until: UInt16
    }

    var id: UUID
    var name: String
    var kind: Kind
    var rating: Int
    var score: Double
    var open: Bool
    var address: Address
    var hours: [Opening]
    var note: String?
    var logo: Data
    var updated: Date
    var tags: Set<String>
    var prices: [String: Int64]
}

/// A model keyed by integers, as legacy tables are.
struct Counter: DataStoreEntity, Equatable {
    static let itemType = "Counter"
    var id: Int
    var value: Int
}

/// A model whose attributes were stored by item writes as other kinds than it declares: typed
/// reads convert them exactly as `init(item:)` does.
struct Reading: DataStoreEntity, Equatable {
    static let itemType = "Reading"
    var id: Int
    var level: Double
    var count: Int32
    var flag: Bool
    var label: String?
    var taken: Date?
}

/// A model that keeps the `Decoder` it was made from and reads it again when it is encoded, as
/// models with deferred decoding do: a kept decoder must never reach another entity's coder.
struct Keeper: DataStoreEntity {
    static let itemType = "Keeper"
    var id: Int
    var name: String
    let kept: KeptDecoder?

    /// The decoder, and what encoding the model found through it.
    final class KeptDecoder: @unchecked Sendable {  // the decoder is only used by the thread encoding the model
        let decoder: any Decoder
        let reads = Locked<[String?]>([])
        init(_ decoder: any Decoder) { self.decoder = decoder }
    }

    private enum CodingKeys: String, CodingKey { case id, name }

    init(id: Int, name: String) {
        self.id = id
        self.name = name
        kept = nil
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        kept = KeptDecoder(decoder)
    }

    func encode(to encoder: any Encoder) throws {
        if let kept {
            let again = try? kept.decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
            kept.reads.withLock { $0.append(again) }
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
    }
}

/// A model that catches decoding errors and takes other branches with them, and lists its keys:
/// the typed path must end where the general path does.
struct Ticket: DataStoreEntity, Equatable {
    static let itemType = "Ticket"
    var id: Int
    /// "new" when the item has no status, "invalid" when it is not a string.
    var status: String
    /// Every key the item has, as `allKeys` lists them.
    var keys: [String]
    /// Whether the whole item also decodes as one value (it never does: it is an object).
    var single: Bool

    private enum CodingKeys: String, CodingKey { case id, status }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        do {
            status = try container.decode(String.self, forKey: .status)
        } catch DecodingError.keyNotFound {
            status = "new"
        } catch {
            status = "invalid"
        }
        let all = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        keys = Dictionary(uniqueKeysWithValues: all.map { ($0, true) }).keys.sorted()
        single = (try? decoder.singleValueContainer().decode(Int.self)) != nil
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(status, forKey: .status)
    }
}

/// Typed entities: mapping, CRUD and synchronize.
enum EntityTests {
    static func venue(_ number: Int, note: String? = nil) -> Venue {
        Venue(
            id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", number)) ?? UUID(),
            name: "Venue \(number)", kind: number.isMultiple(of: 2) ? .restaurant : .takeaway,
            rating: number % 5, score: Double(number) / 3, open: number.isMultiple(of: 3),
            address: .init(street: "\(number) High St", city: "Leeds", location: [53.8, -1.55 - Double(number)]),
            hours: [.init(day: 1, from: 660, until: 1380), .init(day: 7, from: 720, until: 1320)],
            note: note, logo: Data([0, 1, 2, UInt8(number % 256)]),
            updated: Date(timeIntervalSinceReferenceDate: 700_000_000.25 + Double(number)),
            tags: ["wood-fired", "n\(number)"], prices: ["margherita": 900, "extra": Int64(number)])
    }

    static let all: [ConformanceTest] = [
        ConformanceTest("entities with nested structs, arrays, optionals, enums, dates and data round-trip",
                        group: .entities) { context in
            let store = try context.makeStore()
            let venues = [venue(1, note: "corner table"), venue(2)]
            try store.writeSync { accessor throws in
                for venue in venues { try accessor.insert(venue) }
            }
            let stored = try store.read { accessor in try accessor.getAll(Venue.self) }
            #expect(stored == venues.sorted { $0.id.uuidString < $1.id.uuidString })
            let item = try store.read { accessor throws in
                try accessor.item(ofType: "Venue", id: .string(venues[0].id.uuidString))
            }
            #expect(item?["kind"] == "takeaway")
            #expect(item?["address"]?.objectValue?["city"] == "Leeds")
            #expect(item?["updated"] == .date(venues[0].updated))
            #expect(item?["id"] == nil)
            #expect(try store.read { try $0.item(ofType: "Venue", id: .string(venues[1].id.uuidString)) }?["note"] == nil)
        },
        ConformanceTest("insert, update, getById, deleteById and clean behave as CRUD", group: .entities) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor throws in
                try accessor.insert(Counter(id: 1, value: 10))
                try accessor.insert(Counter(id: 2, value: 20))
            }
            expectError(.alreadyExists) { try store.writeSync { try $0.insert(Counter(id: 1, value: 11)) } }
            expectError(.notFound) { try store.writeSync { try $0.update(Counter(id: 3, value: 30)) } }
            try store.writeSync { accessor in try accessor.update(Counter(id: 2, value: 21)) }
            #expect(try store.read { try $0.getById(Counter.self, id: 2) } == Counter(id: 2, value: 21))
            #expect(try store.read { try $0.getById(Counter.self, id: 3) } == nil)
            #expect(try store.read { try $0.item(ofType: "Counter", id: 1) }?.id == .int(1))
            #expect(try store.writeSync { try $0.deleteById(Counter.self, id: 1) })
            #expect(try !store.writeSync { try $0.deleteById(Counter.self, id: 1) })
            try store.writeSync { accessor in try accessor.save(Counter(id: 5, value: 50)) }
            #expect(try store.read { try $0.getAll(Counter.self) } == [Counter(id: 2, value: 21), Counter(id: 5, value: 50)])
            #expect(try store.writeSync { try $0.clean(Counter.self) } == 2)
            #expect(try store.read { try $0.getAll(Counter.self) }.isEmpty)
        },
        ConformanceTest("getAll(_:forRequest:) filters and sorts entities", group: .entities) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor throws in
                for number in 1...10 { try accessor.insert(Counter(id: number, value: (number * 37) % 11)) }
            }
            var request = DataStoreRequest(itemType: Counter.self)
            request.filter = .attribute("value") >= 5
            request.setSort(byKey: "value", ascending: false)
            let found = try store.read { try $0.getAll(Counter.self, forRequest: request) }
            #expect(found.map(\.value) == found.map(\.value).sorted(by: >))
            #expect(found.allSatisfy { $0.value >= 5 } && found.count == (1...10).filter { ($0 * 37) % 11 >= 5 }.count)
            expectError(.invalidArgument) {
                try store.read { try $0.getAll(Counter.self, forRequest: DataStoreRequest(itemType: "Venue")) }
            }
        },
        ConformanceTest("synchronize makes the store hold exactly the collection and reports the changes",
                        group: .entities) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor throws in
                for number in 1...4 { try accessor.insert(Counter(id: number, value: number)) }
            }
            let wanted = [Counter(id: 2, value: 2), Counter(id: 3, value: 33), Counter(id: 5, value: 5), Counter(id: 6, value: 6)]
            let result = try store.writeSync { accessor in try accessor.synchronize(wanted) }
            #expect(result.added == [Counter(id: 5, value: 5), Counter(id: 6, value: 6)])
            #expect(result.updated == [Counter(id: 3, value: 33)])
            #expect(result.removed == [1, 4])
            #expect(result.unchanged == 1)
            #expect(try store.read { try $0.getAll(Counter.self) } == wanted)
            let again = try store.writeSync { accessor in try accessor.synchronize(wanted) }
            #expect(again.isEmpty && again.unchanged == 4)
            expectError(.invalidArgument) {
                try store.writeSync { try $0.synchronize([Counter(id: 1, value: 1), Counter(id: 1, value: 2)]) }
            }
            #expect(try store.read { try $0.getAll(Counter.self) } == wanted)
        },
        ConformanceTest("typed reads convert values stored as other kinds exactly as init(item:) does",
                        group: .entities) { context in
            let store = try context.makeStore()
            let date = Date(timeIntervalSinceReferenceDate: 1_000.5)
            // Whole numbers stored as integers where the model has a Double, as doubles where it has
            // an Int32; bools stored as 0 and 1; absent optionals; every kind next to its own.
            let items = [
                Item(itemType: "Reading", id: 1, attributes: ["level": 3, "count": 4.0, "flag": 1, "label": "a"]),
                Item(itemType: "Reading", id: 2, attributes: ["level": 2.5, "count": 5, "flag": .bool(false), "taken": .date(date)]),
                Item(itemType: "Reading", id: 3, attributes: ["level": -0.0, "count": -6.0, "flag": 0]),
                Item(itemType: "Reading", id: 4, attributes: ["level": 7, "count": 7, "flag": .bool(true), "label": ""]),
            ]
            try seed(store, items)
            let expected = try items.map(Reading.init(item:))
            #expect(expected.map(\.level) == [3, 2.5, 0, 7] && expected.map(\.count) == [4, 5, -6, 7])
            #expect(try store.read { try $0.getAll(Reading.self) } == expected)
            var request = DataStoreRequest(itemType: Reading.self)
            request.setSort(byKey: "level", ascending: false)
            #expect(try store.read { try $0.getAll(Reading.self, forRequest: request) } == [3, 0, 1, 2].map { expected[$0] })
            for reading in expected {
                #expect(try store.read { try $0.getById(Reading.self, id: reading.id) } == reading)
            }
        },
        ConformanceTest("a model that catches decoding errors, or lists its keys, gets what the general path gives it",
                        group: .entities) { context in
            let store = try context.makeStore()
            let items = [
                Item(itemType: "Ticket", id: 1, attributes: ["note": "no status"]),
                Item(itemType: "Ticket", id: 2, attributes: ["status": 5]),
                Item(itemType: "Ticket", id: 3, attributes: ["status": "open", "id": "an attribute named id"]),
            ]
            try seed(store, items)
            let expected = try items.map(Ticket.init(item:))
            #expect(expected.map(\.status) == ["new", "invalid", "open"])
            #expect(try store.read { try $0.getAll(Ticket.self) } == expected)
            for ticket in expected {
                #expect(try store.read { try $0.getById(Ticket.self, id: ticket.id) } == ticket)
            }
        },
        ConformanceTest("a decoder a model kept is never taken for another entity's coder", group: .entities) { context in
            let store = try context.makeStore()
            try store.writeSync { accessor in
                for number in 1...3 { try accessor.insert(Keeper(id: number, name: "k\(number)")) }
            }
            let keepers = try store.read { try $0.getAll(Keeper.self) }
            // Each insert makes a new encoder, which may take the cell the kept decoders' coder had.
            try store.writeSync { accessor in
                for keeper in keepers { try accessor.save(Keeper(id: keeper.id + 10, name: keeper.name)) }
                for keeper in keepers { try accessor.save(keeper) }
            }
            // The kept decoders read their own entity, as the general path's do, or nothing; never
            // another entity's values, and never through an encoder.
            for keeper in keepers {
                let reads = keeper.kept?.reads.value ?? []
                #expect(reads.count == 1 && (reads[0] == nil || reads[0] == keeper.name), "\(reads)")
            }
            #expect(try store.read { try $0.getAll(Keeper.self) }.map(\.name) == ["k1", "k2", "k3", "k1", "k2", "k3"])
        },
        ConformanceTest("an item that does not fit the model throws typeMismatch naming it", group: .entities) { context in
            let store = try context.makeStore()
            // 2.5 is a number, like every later value of "value", but not an Int, so it does not fit
            // the model.
            try seed(store, [Item(itemType: "Counter", id: 1, attributes: ["value": 2.5])])
            let error = expectError(.typeMismatch) { try store.read { try $0.getAll(Counter.self) } }
            #expect(error?.items == [ItemReference(itemType: "Counter", id: 1)])
            #expect(error?.message.contains("value") == true)
            let removed = try store.writeSync { try $0.synchronize([Counter(id: 2, value: 2)]) }
            #expect(removed.removed == [1])
        },
    ]
}
