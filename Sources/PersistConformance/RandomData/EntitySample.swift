import Foundation
import Persist

/// Which item type an ``EntitySample`` is stored as: the typed differential test stores the same
/// values as two twin types, one through the typed path and one through the item path.
public protocol EntitySampleTwin: Sendable {
    /// The item type of the twin.
    static var itemType: String { get }
}

/// The twin written through typed `insert`, `update`, `save` and `synchronize`.
public enum TypedTwin: EntitySampleTwin {
    /// `"SampleTyped"`.
    public static let itemType = "SampleTyped"
}

/// The twin written through items made by `makeItem()`.
public enum ItemTwin: EntitySampleTwin {
    /// `"SampleItems"`.
    public static let itemType = "SampleItems"
}

/// A model using every value kind and Codable feature typed entities support: integers of every
/// width, floats, strings, bytes, dates, URLs, an enum, arrays, dictionaries, nested structs, and
/// optionals of each, some declared between other fields, so that `encodeIfPresent` skips keys in
/// the middle of the order.
///
/// ```swift
/// var random = SeededGenerator(seed: 1)
/// let sample = EntitySample<TypedTwin>.random(number: 0, using: &random)
/// ```
public struct EntitySample<Twin: EntitySampleTwin>: DataStoreEntity {
    /// The twin's item type.
    public static var itemType: String { Twin.itemType }

    /// An enum stored as its raw value.
    public enum Kind: String, Codable, Sendable, CaseIterable { case plain, special, other }

    /// A nested struct with an optional.
    public struct Address: Codable, Sendable {
        var street: String
        var number: Int?
        var location: [Double]
    }

    /// The identifier: one of a few awkward strings followed by the sample's number.
    public var id: String
    var count: Int
    var nickname: String?
    var small: Int8
    var big: Int64
    var unsigned: UInt32
    var rank: Int?
    var ratio: Double
    var level: Float
    var flag: Bool
    var weight: Double?
    var title: String
    var blob: Data
    var when: Date
    var kind: Kind
    var homepage: URL?
    var tags: [String]
    var matrix: [[Int]]
    var address: Address
    var backup: Address?
    var scores: [String: Double]
    var history: [Address]?
    var optionalFlag: Bool?

    /// The same values as the other twin.
    public func twin<Other: EntitySampleTwin>(_ other: Other.Type) -> EntitySample<Other> {
        EntitySample<Other>(
            id: id, count: count, nickname: nickname, small: small, big: big, unsigned: unsigned, rank: rank,
            ratio: ratio, level: level, flag: flag, weight: weight, title: title, blob: blob, when: when,
            kind: EntitySample<Other>.Kind(rawValue: kind.rawValue) ?? .plain, homepage: homepage, tags: tags,
            matrix: matrix,
            address: .init(street: address.street, number: address.number, location: address.location),
            backup: backup.map { .init(street: $0.street, number: $0.number, location: $0.location) },
            scores: scores,
            history: history?.map { .init(street: $0.street, number: $0.number, location: $0.location) },
            optionalFlag: optionalFlag)
    }

    /// Sample `number`, with random values full of edge cases; the identifier depends on
    /// `number` only. With `bare`, every optional is `nil`.
    public static func random<G: RandomNumberGenerator>(number: Int, bare: Bool = false, using generator: inout G) -> Self {
        var pick = SamplePicker(generator: generator)
        defer { generator = pick.generator }
        let optional = !bare
        return EntitySample(
            id: SampleValues.ids[number % SampleValues.ids.count] + String(number),
            count: pick.integer(),
            nickname: optional && pick.chance(0.6) ? pick.string() : nil,
            small: Int8.random(in: .min ... .max, using: &pick.generator),
            big: Int64(pick.integer()),
            unsigned: pick.chance(0.2) ? .max : UInt32.random(in: 0 ... .max, using: &pick.generator),
            rank: optional && pick.chance(0.5) ? pick.integer() : nil,
            ratio: pick.double(),
            level: Float(pick.double()),
            flag: pick.chance(0.5),
            weight: optional && pick.chance(0.5) ? pick.double() : nil,
            title: pick.string(),
            blob: Data(pick.bytes()),
            when: pick.date(),
            kind: pick.element(Kind.allCases),
            homepage: optional && pick.chance(0.4) ? pick.element(SampleValues.urls) : nil,
            tags: (0..<Int.random(in: 0...3, using: &pick.generator)).map { _ in pick.string() },
            matrix: (0..<Int.random(in: 0...2, using: &pick.generator)).map { _ in
                (0..<Int.random(in: 0...3, using: &pick.generator)).map { _ in pick.integer() }
            },
            address: pick.address(optional: optional),
            backup: optional && pick.chance(0.4) ? pick.address(optional: true) : nil,
            scores: Dictionary(
                (0..<Int.random(in: 0...3, using: &pick.generator)).map { _ in (pick.string(), pick.double()) },
                uniquingKeysWith: { first, _ in first }),
            history: optional && pick.chance(0.3)
                ? (0..<Int.random(in: 0...2, using: &pick.generator)).map { _ in pick.address(optional: true) } : nil,
            optionalFlag: optional && pick.chance(0.5) ? pick.chance(0.5) : nil)
    }
}

/// Fixed values of ``EntitySample``s.
enum SampleValues {
    /// Identifier prefixes: empty, with NUL, astral, decomposed.
    static let ids = ["e", "", "with\u{0}nul-", "𝄞", "e\u{301}"]
    static let urls = ["https://example.com/a?b=c", "file:///tmp/x%20y", "mailto:someone@example.com"]
        .compactMap(URL.init(string:))
}

/// Picks edge values for ``EntitySample``.
struct SamplePicker<G: RandomNumberGenerator> {
    var generator: G

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &generator) < probability
    }

    mutating func element<T>(_ list: [T]) -> T {
        list[Int.random(in: 0..<list.count, using: &generator)]
    }

    mutating func integer() -> Int {
        chance(0.3) ? element([0, -1, 1, .min, .max, 1 << 53 + 1]) : Int.random(in: -1_000...1_000, using: &generator)
    }

    mutating func double() -> Double {
        if chance(0.4) {
            return element([0, -0.0, .nan, -.nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                            0.1, 2, Double(Int64(1) << 53) + 2])
        }
        if chance(0.5) { return Double(bitPattern: UInt64.random(in: 0 ... .max, using: &generator)) }
        return Double.random(in: -1e6...1e6, using: &generator)
    }

    mutating func string() -> String {
        if chance(0.4) {
            return element(["", "plain", "with\u{0}nul", "𝄞🎉 astral", "e\u{301}", "\u{e9}", "line\nbreak'\"",
                            String(repeating: "long ", count: 400)])
        }
        let scalars = (0..<Int.random(in: 0...12, using: &generator)).compactMap { _ in
            Unicode.Scalar(UInt32.random(in: 0...0x2FFF, using: &generator))
        }
        return String(String.UnicodeScalarView(scalars))
    }

    mutating func bytes() -> [UInt8] {
        chance(0.3) ? element([[], [0], [0xff, 0, 1]]) : (0..<Int.random(in: 0...24, using: &generator)).map { _ in
            UInt8.random(in: 0...255, using: &generator)
        }
    }

    mutating func date() -> Date {
        if chance(0.3) {
            return element([
                Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: -1e9 + 0.123456789),
                .distantPast, .distantFuture, Date(timeIntervalSince1970: 1_700_000_000.000_001),
            ])
        }
        return Date(timeIntervalSinceReferenceDate: Double.random(in: -1e10...1e10, using: &generator))
    }

    mutating func address<Twin: EntitySampleTwin>(optional: Bool) -> EntitySample<Twin>.Address {
        .init(street: string(), number: optional && chance(0.5) ? integer() : nil,
              location: (0..<Int.random(in: 0...3, using: &generator)).map { _ in double() })
    }
}
