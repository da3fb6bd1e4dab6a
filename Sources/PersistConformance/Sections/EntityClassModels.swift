import Foundation
import Persist

/// A `final class` with a synthesized conformance.
final class Kennel: DataStoreEntity, Equatable, CustomStringConvertible {
    static let itemType = "Kennel"
    let id: Int
    let name: String
    let capacity: Int?

    init(id: Int, name: String, capacity: Int?) {
        self.id = id
        self.name = name
        self.capacity = capacity
    }

    static func == (lhs: Kennel, rhs: Kennel) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.capacity == rhs.capacity
    }

    var description: String { "Kennel(\(id), \(name), \(String(describing: capacity)))" }
}

/// A base class with a synthesized conformance, whose subclasses are entities; two animals are
/// equal when their descriptions, which subclasses extend with their own properties, are.
// @unchecked Sendable: every stored property is a `let` of a Sendable type, so an instance never changes after init; a non-final class cannot prove that to the compiler.
class Animal: Codable, Equatable, @unchecked Sendable, CustomStringConvertible {
    let id: Int
    let name: String
    let legs: Int

    init(id: Int, name: String, legs: Int) {
        self.id = id
        self.name = name
        self.legs = legs
    }

    static func == (lhs: Animal, rhs: Animal) -> Bool { lhs.description == rhs.description }

    var description: String { "\(type(of: self))(\(id), \(name), \(legs))" }
}

/// Keeps its base's keys under `"super"` (`superEncoder()` / `superDecoder()`).
// @unchecked Sendable: as its base class, only `let`s of Sendable types.
final class Dog: Animal, DataStoreEntity, @unchecked Sendable {
    static let itemType = "Dog"
    let breed: String

    init(id: Int, name: String, legs: Int, breed: String) {
        self.breed = breed
        super.init(id: id, name: name, legs: legs)
    }

    private enum CodingKeys: String, CodingKey { case breed }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        breed = try container.decode(String.self, forKey: .breed)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(breed, forKey: .breed)
        try super.encode(to: container.superEncoder())
    }

    override var description: String { "Dog(\(id), \(name), \(legs), \(breed))" }
}

/// Keeps its base's keys under a key of its own (`superEncoder(forKey:)`), and its identifier at
/// the top level too; decodes its own keys after its base's.
// @unchecked Sendable: as its base class, only `let`s of Sendable types.
final class Cat: Animal, DataStoreEntity, @unchecked Sendable {
    static let itemType = "Cat"
    let indoor: Bool

    init(id: Int, name: String, legs: Int, indoor: Bool) {
        self.indoor = indoor
        super.init(id: id, name: name, legs: legs)
    }

    private enum CodingKeys: String, CodingKey { case id, indoor, animal }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let base = try container.superDecoder(forKey: .animal)
        _ = try container.decode(Int.self, forKey: .id)
        indoor = try container.decode(Bool.self, forKey: .indoor)
        try super.init(from: base)
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(indoor, forKey: .indoor)
        try super.encode(to: container.superEncoder(forKey: .animal))
    }

    override var description: String { "Cat(\(id), \(name), \(legs), \(indoor))" }
}

/// Encodes its base into the same top-level container (`super.encode(to: encoder)`): the keys of
/// both levels side by side.
// @unchecked Sendable: as its base class, only `let`s of Sendable types.
final class Bird: Animal, DataStoreEntity, @unchecked Sendable {
    static let itemType = "Bird"
    let wingspan: Double

    init(id: Int, name: String, legs: Int, wingspan: Double) {
        self.wingspan = wingspan
        super.init(id: id, name: name, legs: legs)
    }

    private enum CodingKeys: String, CodingKey { case wingspan }

    required init(from decoder: any Decoder) throws {
        wingspan = try decoder.container(keyedBy: CodingKeys.self).decode(Double.self, forKey: .wingspan)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(wingspan, forKey: .wingspan)
        try super.encode(to: encoder)
    }

    override var description: String { "Bird(\(id), \(name), \(legs), \(wingspan))" }
}

/// Builds nested containers itself, asks for its top-level container twice, writes one key twice
/// (the second write wins), and reads its keys in another order than it writes them.
struct Parcel: DataStoreEntity, Equatable {
    static let itemType = "Parcel"
    var id: String
    var weight: Double
    var sender: String
    var city: String
    var tags: [String]
    var note: String?

    init(id: String, weight: Double, sender: String, city: String, tags: [String], note: String?) {
        (self.id, self.weight, self.sender, self.city, self.tags, self.note) = (id, weight, sender, city, tags, note)
    }

    private enum CodingKeys: String, CodingKey { case id, weight, from, tags, note, status }
    private enum FromKeys: String, CodingKey { case sender, city }

    init(from decoder: any Decoder) throws {
        let first = try decoder.container(keyedBy: CodingKeys.self)
        let from = try first.nestedContainer(keyedBy: FromKeys.self, forKey: .from)
        city = try from.decode(String.self, forKey: .city)
        sender = try from.decode(String.self, forKey: .sender)
        var list = try first.nestedUnkeyedContainer(forKey: .tags)
        var tags: [String] = []
        while !list.isAtEnd { tags.append(try list.decode(String.self)) }
        self.tags = tags
        let second = try decoder.container(keyedBy: CodingKeys.self)
        note = second.contains(.note) ? try second.decode(String.self, forKey: .note) : nil
        weight = try second.decode(Double.self, forKey: .weight)
        id = try second.decode(String.self, forKey: .id)
    }

    func encode(to encoder: any Encoder) throws {
        var first = encoder.container(keyedBy: CodingKeys.self)
        try first.encode(id, forKey: .id)
        try first.encode(-1.0, forKey: .weight)
        try first.encode("draft", forKey: .status)
        var from = first.nestedContainer(keyedBy: FromKeys.self, forKey: .from)
        try from.encode(sender, forKey: .sender)
        try from.encode(city, forKey: .city)
        var list = first.nestedUnkeyedContainer(forKey: .tags)
        for tag in tags { try list.encode(tag) }
        var second = encoder.container(keyedBy: CodingKeys.self)
        try second.encodeIfPresent(note, forKey: .note)
        try second.encode(weight, forKey: .weight)
        try second.encodeNil(forKey: .status)
    }
}

/// Flat keys only, written twice and read in another order, some of them only when present
/// (`contains`, `allKeys`), so that the typed fast path handles every entity.
struct Ledger: DataStoreEntity, Equatable {
    static let itemType = "Ledger"
    var id: Int
    var owner: String
    var balance: Int
    var extras: [String]
    var memo: String?

    init(id: Int, owner: String, balance: Int, extras: [String], memo: String?) {
        (self.id, self.owner, self.balance, self.extras, self.memo) = (id, owner, balance, extras, memo)
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        memo = try container.contains(Key("memo")) ? container.decode(String.self, forKey: Key("memo")) : nil
        balance = try container.decode(Int.self, forKey: Key("balance"))
        id = try container.decode(Int.self, forKey: Key("id"))
        owner = try container.decode(String.self, forKey: Key("owner"))
        extras = container.allKeys.map(\.stringValue).filter { $0.hasPrefix("x_") }
        // Reads one extra key more; the others stay unread.
        if let first = extras.first { _ = try container.decode(Int.self, forKey: Key(first)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(id, forKey: Key("id"))
        try container.encode(0, forKey: Key("balance"))
        try container.encode(owner, forKey: Key("owner"))
        try container.encodeIfPresent(memo, forKey: Key("memo"))
        for (index, extra) in extras.enumerated() { try container.encode(index, forKey: Key(extra)) }
        try container.encode(balance, forKey: Key("balance"))
    }
}

/// A non-final entity class; its subclass adds a key, so a write of `[Vehicle]` mixes shapes.
// @unchecked Sendable: every stored property is a `let` of a Sendable type, so an instance never changes after init; a non-final class cannot prove that to the compiler.
class Vehicle: DataStoreEntity, Equatable, CustomStringConvertible, @unchecked Sendable {
    static let itemType = "Vehicle"
    let id: Int
    let wheels: Int

    init(id: Int, wheels: Int) {
        self.id = id
        self.wheels = wheels
    }

    static func == (lhs: Vehicle, rhs: Vehicle) -> Bool { lhs.description == rhs.description }

    var description: String { "\(type(of: self))(\(id), \(wheels))" }
}

/// A subclass stored as its base's item type, with a key of its own.
// @unchecked Sendable: as its base class, only `let`s of Sendable types.
final class Truck: Vehicle, @unchecked Sendable {
    let load: Int

    init(id: Int, wheels: Int, load: Int) {
        self.load = load
        super.init(id: id, wheels: wheels)
    }

    private enum CodingKeys: String, CodingKey { case load }

    required init(from decoder: any Decoder) throws {
        load = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .load)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(load, forKey: .load)
    }

    override var description: String { "Truck(\(id), \(wheels), \(load))" }
}
