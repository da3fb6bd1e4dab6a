import Persist

/// A model with a hand-written `Codable` conformance whose keys vary from entity to entity: in
/// another order, only sometimes, `nil` written as null, dynamic keys from a dictionary, and a
/// nested container at the top level. Entity plans must extend, fall back to the general path,
/// or give up on the type, and never store or read such an entity differently.
struct ShapeShifter<Twin: EntitySampleTwin>: DataStoreEntity, Equatable {
    static var itemType: String { Twin.itemType + "Shifter" }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        init(_ name: String) { stringValue = name }
    }

    var id: Int
    var mode: Int
    var first: String
    var second: Int?
    var extras: [String: Int]
    var boxed: Int?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(id, forKey: Key("id"))
        try container.encode(mode, forKey: Key("mode"))
        switch mode % 5 {
        case 0:
            try container.encode(first, forKey: Key("first"))
            try container.encodeIfPresent(second, forKey: Key("second"))
        case 1:
            try container.encodeIfPresent(second, forKey: Key("second"))
            try container.encode(first, forKey: Key("first"))
        case 2:
            try container.encode(first, forKey: Key("first"))
            try container.encodeNil(forKey: Key("second"))
        case 3:
            try container.encode(first, forKey: Key("first"))
            try container.encodeIfPresent(second, forKey: Key("second"))
            for (name, value) in extras { try container.encode(value, forKey: Key("extra." + name)) }
        default:
            try container.encode(first, forKey: Key("first"))
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key("box"))
            try nested.encodeIfPresent(boxed, forKey: Key("value"))
        }
    }

    init(id: Int, mode: Int, first: String, second: Int?, extras: [String: Int], boxed: Int?) {
        self.id = id
        self.mode = mode
        self.first = first
        self.second = mode % 5 == 2 || mode % 5 == 4 ? nil : second
        self.extras = mode % 5 == 3 ? extras : [:]
        self.boxed = mode % 5 == 4 ? boxed : nil
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        id = try container.decode(Int.self, forKey: Key("id"))
        mode = try container.decode(Int.self, forKey: Key("mode"))
        if mode % 5 == 1 {
            second = try container.decodeIfPresent(Int.self, forKey: Key("second"))
            first = try container.decode(String.self, forKey: Key("first"))
        } else {
            first = try container.decode(String.self, forKey: Key("first"))
            second = try container.decodeNil(forKey: Key("second")) ? nil : container.decode(Int.self, forKey: Key("second"))
        }
        var extras: [String: Int] = [:]
        for key in container.allKeys where key.stringValue.hasPrefix("extra.") {
            extras[String(key.stringValue.dropFirst("extra.".count))] = try container.decode(Int.self, forKey: key)
        }
        self.extras = extras
        if container.contains(Key("box")) {
            let box = try container.nestedContainer(keyedBy: Key.self, forKey: Key("box"))
            boxed = try box.decodeIfPresent(Int.self, forKey: Key("value"))
        } else {
            boxed = nil
        }
    }

    /// Entity `number`, of a random shape.
    static func random<G: RandomNumberGenerator>(number: Int, using generator: inout G) -> Self {
        let mode = Int.random(in: 0..<5, using: &generator)
        var extras: [String: Int] = [:]
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            extras["k\(Int.random(in: 0..<60, using: &generator))"] = Int.random(in: -9...9, using: &generator)
        }
        return ShapeShifter(
            id: number, mode: mode, first: "f\(Int.random(in: 0..<9, using: &generator))",
            second: Bool.random(using: &generator) ? Int.random(in: 0..<9, using: &generator) : nil,
            extras: extras, boxed: Bool.random(using: &generator) ? Int.random(in: 0..<9, using: &generator) : nil)
    }

    /// The same values as the other twin.
    func twin<Other: EntitySampleTwin>(_ other: Other.Type) -> ShapeShifter<Other> {
        ShapeShifter<Other>(id: id, mode: mode, first: first, second: second, extras: extras, boxed: boxed)
    }
}

/// A model that cannot be stored: its unsigned integer does not fit in 64 signed bits.
struct Overflowing: DataStoreEntity {
    static let itemType = "SampleOverflowing"
    var id: Int
    var huge: UInt64
}

/// A model whose stored items do not decode: its `value` is an integer, the items hold 2.5.
struct Strict: DataStoreEntity, Equatable {
    static let itemType = "SampleStrict"
    var id: Int
    var value: Int
}

/// A model whose item type name is invalid (empty).
struct Nameless: DataStoreEntity {
    static let itemType = ""
    var id: Int
}
