import Foundation
import Persist
import Testing

/// A model with optionals before, between and after other keys.
private struct Plain: DataStoreEntity, Equatable {
    static let itemType = "PlanPlain"
    var first: String?
    var id: Int
    var middle: Int?
    var name: String
    var last: Date?
}

/// ``Dynamic`` under another type, read before it is ever written.
private struct DynamicRead: DataStoreEntity, Equatable {
    static let itemType = "PlanDynamicRead"
    var id: Int
    var values: [String: Int]

    init(from decoder: any Decoder) throws {
        let dynamic = try Dynamic(from: decoder)
        id = dynamic.id
        values = dynamic.values
    }

    func encode(to encoder: any Encoder) throws { try Dynamic(id: id, values: values).encode(to: encoder) }
}

/// A model read before it was ever written in this process.
private struct ReadFirst: DataStoreEntity, Equatable {
    static let itemType = "PlanReadFirst"
    var id: String
    var size: Int
    var label: String?
}

/// A model whose top-level keys are a dictionary's.
private struct Dynamic: DataStoreEntity, Equatable {
    static let itemType = "PlanDynamic"
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var id: Int
    var values: [String: Int]

    init(id: Int, values: [String: Int]) {
        self.id = id
        self.values = values
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(id, forKey: Key(stringValue: "id"))
        for (name, value) in values { try container.encode(value, forKey: Key(stringValue: name)) }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        id = try container.decode(Int.self, forKey: Key(stringValue: "id"))
        var values: [String: Int] = [:]
        for key in container.allKeys where key.stringValue != "id" {
            values[key.stringValue] = try container.decode(Int.self, forKey: key)
        }
        self.values = values
    }
}

@Suite("Entity plans learn each type's keys in the model's order")
struct EntityPlanTests {
    @Test("keys a plan lacks are placed after the key they followed, in chains, or first")
    func extension_() {
        let plan = EntityPlan(itemType: "T", idKey: "id", names: ["id", "b", "e"], extensions: 0)
        let extended = plan.extended(with: [
            EntityPlanAddition(name: "a", after: nil), EntityPlanAddition(name: "c", after: "b"),
            EntityPlanAddition(name: "d", after: "c"), EntityPlanAddition(name: "f", after: "e"),
            EntityPlanAddition(name: "b", after: "a"),
        ])
        #expect(extended.names == ["a", "id", "b", "c", "d", "e", "f"])
        #expect(extended.idSlot == 1)
        #expect(extended.attributeSlots == [0, 2, 3, 4, 5, 6])
        #expect(extended.extensions == 1)
        #expect(plan.extended(with: [EntityPlanAddition(name: "b", after: nil)]) === plan)
    }

    @Test("attribute slots in byte order follow the names' UTF-8 bytes, without the identifier")
    func byteOrder() {
        let plan = EntityPlan(itemType: "T", idKey: "id", names: ["é", "id", "Z", "a", "e\u{301}"], extensions: 0)
        #expect(plan.attributeSlotsInByteOrder.map { plan.names[$0] } == ["Z", "a", "e\u{301}", "é"])
    }

    @Test("writing learns the model's declaration order, nil optionals included once they are set")
    func learnsFromWrites() throws {
        let store = InMemoryDataStore()
        try store.setup()
        let bare = Plain(first: nil, id: 1, middle: nil, name: "bare", last: nil)
        let full = Plain(first: "f", id: 2, middle: 3, name: "full", last: Date(timeIntervalSinceReferenceDate: 5))
        try store.writeSync { accessor in
            try accessor.insert(bare)
            #expect(EntityPlans.plan(for: Plain.self).names == ["id", "name"])
            try accessor.insert(full)
        }
        #expect(EntityPlans.plan(for: Plain.self).names == ["first", "id", "middle", "name", "last"])
        #expect(try store.read { try $0.getAll(Plain.self) } == [bare, full])
        #expect(try store.read { try $0.item(ofType: Plain.itemType, id: 1) } == (try bare.makeItem()))
    }

    @Test("reading learns the keys the model asks for, from rows of items it never wrote")
    func learnsFromReads() throws {
        let store = InMemoryDataStore()
        try store.setup()
        try store.writeSync { accessor in
            try accessor.insert(Item(itemType: ReadFirst.itemType, id: "a", attributes: ["size": 1, "label": "x", "other": true]))
            try accessor.insert(Item(itemType: ReadFirst.itemType, id: "b", attributes: ["size": 2]))
        }
        #expect(EntityPlans.plan(for: ReadFirst.self).names.isEmpty)
        let expected = [ReadFirst(id: "a", size: 1, label: "x"), ReadFirst(id: "b", size: 2, label: nil)]
        #expect(try store.read { try $0.getAll(ReadFirst.self) } == expected)
        #expect(EntityPlans.plan(for: ReadFirst.self).names == ["id", "size", "label"])
        #expect(try store.read { try $0.getAll(ReadFirst.self) } == expected)
        #expect(try store.read { try $0.getById(ReadFirst.self, id: "b") } == expected[1])
    }

    @Test("reading a type whose keys keep changing stops growing its plan, and reads as the general path does")
    func irregularReads() throws {
        let store = InMemoryDataStore()
        try store.setup()
        // Items written the general way: only reads learn the keys of DynamicRead.
        let count = 200
        try store.writeSync { accessor in
            for id in 0..<count {
                try accessor.insert(Item(itemType: DynamicRead.itemType, id: .int(Int64(id)), attributes: ["k\(id)": .int(Int64(id))]))
            }
        }
        let general = try store.read { accessor in
            try accessor.items(forRequest: DataStoreRequest(itemType: DynamicRead.itemType)).map(DynamicRead.init(item:))
        }
        #expect(general.count == count)
        #expect(try store.read { try $0.getAll(DynamicRead.self) } == general)
        let plan = EntityPlans.plan(for: DynamicRead.self)
        #expect(plan.isIrregular)
        #expect(plan.names.count <= EntityPlan.maximumExtensions + 2, "the plan holds \(plan.names.count) names")
    }

    @Test("a type whose keys keep changing becomes irregular and is still stored exactly")
    func irregular() throws {
        let store = InMemoryDataStore()
        try store.setup()
        let entities = (0..<(EntityPlan.maximumExtensions + 8)).map { Dynamic(id: $0, values: ["k\($0)": $0, "shared": 1]) }
        try store.writeSync { accessor in
            for entity in entities { try accessor.insert(entity) }
        }
        #expect(EntityPlans.plan(for: Dynamic.self).isIrregular)
        #expect(try store.read { try $0.getAll(Dynamic.self) } == entities)
        for entity in entities {
            #expect(try store.read { try $0.item(ofType: Dynamic.itemType, id: .int(Int64(entity.id))) } == (try entity.makeItem()))
        }
    }
}
