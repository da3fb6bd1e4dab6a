import Foundation
import Persist

/// Random items and requests for the differential test and the predicate fuzz target.
///
/// With ``Variety/pooled`` values (the differential test's), each attribute mostly holds one kind
/// and now and then another (plus missing values), since every store holds any mix of kinds, and
/// values come from small pools full of edge cases so that ties, duplicates, NaN, signed zeros,
/// NULs and canonically equivalent strings meet every operator. With ``Variety/anything`` (the fuzz
/// target's), any attribute holds any kind, pooled edge cases mix with raw bit patterns, strings,
/// bytes and nested values, and offsets and limits reach `Int.max`.
///
/// The choices come from `Generator`: a ``SeededGenerator`` repeats a run from its seed, and a
/// ``FuzzInputGenerator`` lets a fuzzer's input bytes make each choice directly.
///
/// ```swift
/// var random = RandomData(seed: 7)
/// let items = random.items(perType: 60)
/// let request = random.request(itemCount: 60)
///
/// var fuzzed = RandomData(generator: FuzzInputGenerator(input), variety: .anything)
/// let value = fuzzed.value()
/// ```
public struct RandomData<Generator: RandomNumberGenerator> {
    /// Which values the data is made of.
    public enum Variety: Sendable {
        /// Mostly one kind per attribute, sometimes another, values from small pools of edge cases.
        case pooled
        /// Any kind in any attribute: pooled edge cases, raw values and nesting.
        case anything
    }

    var generator: Generator
    /// Which values the data is made of.
    public let variety: Variety
    /// The kinds included only when asked for (see ``RandomExtras``).
    public let extras: RandomExtras

    /// Random data whose choices come from `generator`, with `extras` mixed in sometimes.
    public init(generator: Generator, variety: Variety = .pooled, extras: RandomExtras = []) {
        self.generator = generator
        self.variety = variety
        self.extras = extras
    }

    mutating func pick<T>(_ list: [T]) -> T {
        list[Int.random(in: 0..<list.count, using: &generator)]
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &generator) < probability
    }

    /// `count` items of each item type, with unique identifiers of all three kinds.
    public mutating func items(perType count: Int) -> [Item] {
        var items: [Item] = []
        for itemType in RandomPools.itemTypes {
            for index in 0..<count {
                let id: ItemID
                switch index % 3 {
                case _ where extras.contains(.compositeIdentifiers) && index % 5 == 4:
                    id = pooledComposite(index)
                case 0: id = .int(Int64(index * 7 % 101) - 50)
                case 1: id = .string(pick(["k", "K", "é", "a\u{0}"]) + String(index))
                default: id = .bytes([UInt8(index % 256), UInt8(index / 256)])
                }
                var attributes: [String: Value] = [:]
                for (name, pool) in RandomPools.schema where chance(0.8) {
                    attributes[name] = variety == .pooled ? pooledValue(pool) : value()
                }
                items.append(Item(itemType: itemType, id: id, attributes: attributes))
            }
        }
        return items
    }

    /// A composite identifier unique to `index`: two or three components of mixed kinds, some
    /// sharing their first components so that the order compares the later ones.
    mutating func pooledComposite(_ index: Int) -> ItemID {
        let first: ItemID = index % 2 == 0 ? .int(Int64(index % 3)) : .string(pick(["k", "é"]))
        let second: ItemID = .string(String(index))
        return .composite(chance(0.3) ? [first, second, .bytes([UInt8(index % 256)])] : [first, second])
    }

    /// A random literal for comparing with attribute `name`: usually of its kind, sometimes not.
    mutating func literal(for name: String) -> Value {
        if extras.contains(.decimals) && chance(0.08) { return pick(RandomPools.decimals) }
        if variety == .anything && chance(0.6) { return value(depth: 1) }
        if chance(0.05) { return .null }
        if chance(0.12) { return pick(pick(RandomPools.schema).pool) }
        switch name {
        case "i", "d": return pick(RandomPools.intsAndDoubles)
        default: return pick(RandomPools.schema.first { $0.name == name }?.pool ?? RandomPools.ints)
        }
    }

    mutating func attributeName() -> String {
        if variety == .anything { return pick(RandomPools.attributeNames) }
        return chance(0.06) ? "missing" : pick(RandomPools.schema).name
    }

    mutating func predicate(depth: Int) -> DataStorePredicate {
        if depth > 0 && chance(0.45) {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: return predicate(depth: depth - 1) && predicate(depth: depth - 1)
            case 1: return predicate(depth: depth - 1) || predicate(depth: depth - 1)
            default: return !predicate(depth: depth - 1)
            }
        }
        let name = attributeName()
        switch Int.random(in: 0..<10, using: &generator) {
        case 0:
            return .isNil(attribute: name)
        case 1:
            let count = Int.random(in: 0...3, using: &generator)
            return .isIn(attribute: name, (0..<count).map { _ in literal(for: name) })
        case 2, 3:
            let textName = chance(0.8) ? pick(["s", "x"]) : name
            let operand: Value
            if variety == .anything && chance(0.3) {
                operand = value(depth: 0)
            } else {
                operand = textName == "x" ? pick(RandomPools.bytes) : pick(RandomPools.textOperands)
            }
            return .text(attribute: textName, pick(DataStorePredicate.TextOperator.allCases), operand)
        default:
            return .comparison(attribute: name, pick(DataStorePredicate.ComparisonOperator.allCases), literal(for: name))
        }
    }

    /// A random request over one of the item types.
    public mutating func request(itemCount: Int) -> DataStoreRequest {
        var request = DataStoreRequest(itemType: chance(0.97) ? pick(RandomPools.itemTypes) : "Gamma")
        if chance(0.85) { request.filter = predicate(depth: variety == .pooled ? 3 : 4) }
        let sortCount = Int.random(in: 0...3, using: &generator)
        request.sortDescriptors = (0..<sortCount).map { _ in DataStoreSortDescriptor(key: attributeName(), ascending: chance(0.5)) }
        if chance(0.4) { request.offset = count(upTo: itemCount + 2) }
        if chance(0.5) { request.limit = count(upTo: itemCount + 2) }
        if variety == .anything && chance(0.1) { request.ordering = .unspecified }
        return request
    }

    /// An offset or limit: up to `maximum`, or (``Variety/anything`` only) sometimes near `Int.max`.
    mutating func count(upTo maximum: Int) -> Int {
        if variety == .anything && chance(0.15) {
            return chance(0.5) ? pick(RandomPools.bigCounts) : Int(truncatingIfNeeded: rawBits() >> 1)
        }
        return Int.random(in: 0...maximum, using: &generator)
    }
}

extension RandomData where Generator == SeededGenerator {
    /// Pooled random data fixed by `seed`, with `extras` mixed in sometimes.
    public init(seed: UInt64, extras: RandomExtras = []) {
        self.init(generator: SeededGenerator(seed: seed), extras: extras)
    }
}
