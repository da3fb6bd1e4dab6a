import Foundation
import Persist
import Testing

/// Class hierarchies and hand-written conformances with unusual shapes: typed reads and writes
/// give exactly what the item path gives, on every read (the fast path learns a plan after the
/// first entity).
enum EntityClassTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("a final class round-trips as the item path does", group: .entities) { context in
            try check(context, (1...6).map { Kennel(id: $0, name: "k\($0)", capacity: $0 % 2 == 0 ? nil : $0 * 10) },
                      updated: { Kennel(id: $0.id, name: $0.name + "!", capacity: $0.capacity == nil ? 7 : nil) },
                      extra: Kennel(id: 9, name: "extra", capacity: 1), filter: .attribute("capacity") >= 7)
        },
        ConformanceTest("a subclass keeping its base under superEncoder() round-trips as the item path does",
                        group: .entities) { context in
            try check(context, (1...6).map { Dog(id: $0, name: "d\($0)", legs: 4, breed: $0 % 2 == 0 ? "pug" : "lab") },
                      updated: { Dog(id: $0.id, name: $0.name, legs: 3, breed: "mutt") },
                      extra: Dog(id: 9, name: "extra", legs: 4, breed: "pug"), filter: .attribute("breed") == "pug")
        },
        ConformanceTest("a subclass keeping its base under superEncoder(forKey:) round-trips as the item path does",
                        group: .entities) { context in
            try check(context, (1...6).map { Cat(id: $0, name: "c\($0)", legs: 4, indoor: $0 % 3 == 0) },
                      updated: { Cat(id: $0.id, name: $0.name + "?", legs: 4, indoor: !$0.indoor) },
                      extra: Cat(id: 9, name: "extra", legs: 3, indoor: true), filter: .attribute("indoor") == true)
        },
        ConformanceTest("a subclass encoding its base into the same container round-trips as the item path does",
                        group: .entities) { context in
            try check(context, (1...6).map { Bird(id: $0, name: "b\($0)", legs: 2, wingspan: Double($0) / 4) },
                      updated: { Bird(id: $0.id, name: $0.name, legs: 1, wingspan: $0.wingspan * 2) },
                      extra: Bird(id: 9, name: "extra", legs: 2, wingspan: 0.5), filter: .attribute("wingspan") > 0.6)
        },
        ConformanceTest("a model with nested containers of its own and a key written twice round-trips as the item path does",
                        group: .entities) { context in
            try check(context, (1...6).map {
                Parcel(id: "p\($0)", weight: Double($0), sender: "s\($0)", city: $0 % 2 == 0 ? "Leeds" : "York",
                       tags: Array(repeating: "t", count: $0 % 3), note: $0 % 2 == 0 ? nil : "n\($0)")
            }, updated: { Parcel(id: $0.id, weight: $0.weight + 0.5, sender: $0.sender, city: "Hull", tags: [], note: "u") },
               extra: Parcel(id: "p9", weight: 9, sender: "x", city: "Bath", tags: ["a", "b"], note: nil),
               filter: .attribute("weight") >= 3)
        },
        ConformanceTest("a model reading its keys in another order, some of them, and by contains and allKeys round-trips as the item path does",
                        group: .entities) { context in
            try check(context, (1...6).map {
                Ledger(id: $0, owner: "o\($0)", balance: $0 * 100, extras: Array(["x_a", "x_b", "x_c"].prefix($0 % 4)),
                       memo: $0 % 2 == 0 ? "m\($0)" : nil)
            }, updated: { Ledger(id: $0.id, owner: $0.owner, balance: $0.balance + 1, extras: ["x_z"], memo: nil) },
               extra: Ledger(id: 9, owner: "extra", balance: 1, extras: [], memo: "e"), filter: .attribute("balance") > 250)
        },
        ConformanceTest("instances of an entity class's subclass are written as the item path writes them and read as the base class",
                        group: .entities) { context in
            let store = try context.makeStore()
            let vehicles: [Vehicle] = (1...6).map { $0 % 2 == 0 ? Truck(id: $0, wheels: 6, load: $0 * 10) : Vehicle(id: $0, wheels: 4) }
            try store.writeSync { accessor in for vehicle in vehicles.prefix(3) { try accessor.insert(vehicle) } }
            try store.writeSync { accessor in for vehicle in vehicles.dropFirst(3) { try accessor.save(vehicle) } }
            #expect(try allItems(store, Vehicle.itemType) == vehicles.map { try $0.makeItem() })
            #expect(try allItems(store, Vehicle.itemType)[1]["load"] == 20)
            let bases = vehicles.map { Vehicle(id: $0.id, wheels: $0.wheels) }
            for _ in 0..<3 {
                #expect(try store.read { try $0.getAll(Vehicle.self) } == bases)
                #expect(try store.read { try $0.getById(Vehicle.self, id: 2) } == bases[1])
            }
        },
        ConformanceTest("items that do not fit a class hierarchy or a hand-written conformance fail typed reads as the item path does",
                        group: .entities) { context in
            let store = try context.makeStore()
            try checkErrors(store, Dog(id: 1, name: "d", legs: 4, breed: "pug"), [
                Item(itemType: Dog.itemType, id: 2, attributes: ["breed": "b", "super": ["id": 2, "name": "n", "legs": "four"]]),
                Item(itemType: Dog.itemType, id: 3, attributes: ["breed": "b"]),
                Item(itemType: Dog.itemType, id: 4, attributes: ["breed": "b", "super": "flat"]),
            ], ids: [2, 3, 4])
            try checkErrors(store, Cat(id: 1, name: "c", legs: 4, indoor: true), [
                Item(itemType: Cat.itemType, id: 2, attributes: ["indoor": true, "animal": ["id": 2, "name": 5, "legs": 4]]),
                Item(itemType: Cat.itemType, id: 3, attributes: ["indoor": true]),
                Item(itemType: Cat.itemType, id: 4, attributes: ["indoor": "yes", "animal": ["id": 4, "name": "n", "legs": 4]]),
            ], ids: [2, 3, 4])
            try checkErrors(store, Bird(id: 1, name: "b", legs: 2, wingspan: 1), [
                Item(itemType: Bird.itemType, id: 2, attributes: ["wingspan": "wide", "name": "n", "legs": 2]),
                Item(itemType: Bird.itemType, id: 3, attributes: ["wingspan": 1.5, "legs": 2]),
                Item(itemType: Bird.itemType, id: 4, attributes: ["wingspan": 1.5, "name": "n", "legs": 2.5]),
            ], ids: [2, 3, 4])
            try checkErrors(store, Parcel(id: "p1", weight: 1, sender: "s", city: "c", tags: ["t"], note: nil), [
                Item(itemType: Parcel.itemType, id: "p2", attributes: ["weight": 1, "tags": ["t"]]),
                Item(itemType: Parcel.itemType, id: "p3", attributes: ["weight": 1, "from": ["sender": "s", "city": "c"], "tags": "t"]),
                Item(itemType: Parcel.itemType, id: "p4", attributes: ["weight": 1, "from": ["sender": "s", "city": "c"], "tags": [], "note": 3]),
            ], ids: ["p2", "p3", "p4"])
            try checkErrors(store, Ledger(id: 1, owner: "o", balance: 1, extras: ["x_a"], memo: nil), [
                Item(itemType: Ledger.itemType, id: 2, attributes: ["owner": "o", "balance": 1, "x_a": "one"]),
                Item(itemType: Ledger.itemType, id: 3, attributes: ["owner": "o"]),
                Item(itemType: Ledger.itemType, id: 4, attributes: ["owner": "o", "balance": 1, "memo": ["m"]]),
            ], ids: [2, 3, 4])
        },
        ConformanceTest("a typed write that cannot be stored fails as the item write does and leaves nothing written",
                        group: .entities) { context in
            let store = try context.makeStore()
            let good = Ledger(id: 1, owner: "o", balance: 1, extras: ["x_a"], memo: nil)
            let bad = Ledger(id: 2, owner: "o", balance: 1, extras: ["x_\u{0}"], memo: nil)
            for _ in 0..<3 {
                let typed = expectError(.invalidArgument) {
                    try store.writeSync { accessor in
                        try accessor.insert(good)
                        try accessor.insert(bad)
                    }
                }
                let general = expectError(.invalidArgument) {
                    try store.writeSync { accessor in
                        try accessor.insert(good.makeItem())
                        try accessor.insert(bad.makeItem())
                    }
                }
                #expect(typed?.message == general?.message)
                #expect(try allItems(store, Ledger.itemType).isEmpty)
            }
            try store.writeSync { try $0.insert(good) }
            let typed = expectError(.invalidArgument) { try store.writeSync { try $0.update(Ledger(id: 1, owner: "p", balance: 2, extras: ["x_\u{0}"], memo: "m")) } }
            #expect(typed != nil)
            #expect(try allItems(store, Ledger.itemType) == [try good.makeItem()])
        },
    ]

    /// Stores `good` and `bad`, then reads them every way, several times: each typed read fails
    /// exactly as `init(item:)` fails on the same item.
    static func checkErrors<E: DataStoreEntity & Equatable>(
        _ store: any DataStore, _ good: E, _ bad: [Item], ids: [E.ID], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try store.writeSync { accessor in
            try accessor.insert(good)
            for item in bad { try accessor.insert(item) }
        }
        for round in 0..<4 {
            #expect(try store.read { try $0.getById(E.self, id: good.id) } == good, "round \(round)", sourceLocation: sourceLocation)
            let all = expectError(.typeMismatch, sourceLocation: sourceLocation) { try store.read { try $0.getAll(E.self) } }
            let first = expectError(.typeMismatch, sourceLocation: sourceLocation) { try allItems(store, E.itemType).map(E.init(item:)) }
            #expect(all?.message == first?.message, "getAll, round \(round)", sourceLocation: sourceLocation)
            for (item, id) in zip(bad, ids) {
                let general = expectError(.typeMismatch, sourceLocation: sourceLocation) { try E(item: item) }
                let typed = expectError(.typeMismatch, sourceLocation: sourceLocation) {
                    try store.read { try $0.getById(E.self, id: id) }
                }
                #expect(typed?.message == general?.message, "\(item.id), round \(round)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Writes `entities` (half typed, half as items), reads them every way several times, updates
    /// each with `updated` and saves `extra`, then reads again: typed results equal the item path's.
    static func check<E: DataStoreEntity & Equatable>(
        _ context: ConformanceContext, _ entities: [E], updated: (E) -> E, extra: E, filter: DataStorePredicate,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let store = try context.makeStore()
        let half = entities.count / 2
        try store.writeSync { accessor in for entity in entities.prefix(half) { try accessor.insert(entity) } }
        try store.writeSync { accessor in for entity in entities.dropFirst(half) { try accessor.insert(entity.makeItem()) } }
        try compare(store, entities, filter: filter, sourceLocation: sourceLocation)
        let changed = entities.map(updated)
        try store.writeSync { accessor in
            for entity in changed.prefix(half) { try accessor.update(entity) }
            for entity in changed.dropFirst(half) { try accessor.save(entity) }
            try accessor.save(extra)
        }
        try compare(store, changed + [extra], filter: filter, sourceLocation: sourceLocation)
    }

    static func compare<E: DataStoreEntity & Equatable>(
        _ store: any DataStore, _ expected: [E], filter: DataStorePredicate, sourceLocation: SourceLocation
    ) throws {
        let items = try allItems(store, E.itemType)
        let made = try expected.map { try $0.makeItem() }.sorted { $0.id < $1.id }
        #expect(items == made, "stored items", sourceLocation: sourceLocation)
        let general = try items.map(E.init(item:))
        var request = DataStoreRequest(itemType: E.itemType)
        request.filter = filter
        let filtered = try store.read { try $0.items(forRequest: request) }.map(E.init(item:))
        #expect(!filtered.isEmpty && filtered.count < general.count, "the filter selects some", sourceLocation: sourceLocation)
        for round in 0..<4 {
            #expect(try store.read { try $0.getAll(E.self) } == general, "getAll, round \(round)", sourceLocation: sourceLocation)
            #expect(try store.read { try $0.getAll(E.self, forRequest: request) } == filtered,
                    "getAll(forRequest:), round \(round)", sourceLocation: sourceLocation)
            for entity in expected {
                #expect(try store.read { try $0.getById(E.self, id: entity.id) } == entity,
                        "getById \(entity.id), round \(round)", sourceLocation: sourceLocation)
            }
        }
        #expect(Set(general.map { "\($0)" }) == Set(expected.map { "\($0)" }), "init(item:)", sourceLocation: sourceLocation)
    }
}
