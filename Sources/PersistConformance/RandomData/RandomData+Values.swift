import Foundation
import Persist

extension RandomData {
    /// A value of any kind: a pooled edge case, a raw bit pattern, string or byte string, or an
    /// array or object nesting up to `depth` more levels.
    ///
    /// ```swift
    /// var random = RandomData(generator: FuzzInputGenerator(input), variety: .anything)
    /// let (a, b) = (random.value(), random.value())
    /// ```
    public mutating func value(depth: Int = 2) -> Value {
        if extras.contains(.decimals) && chance(0.06) { return pick(RandomPools.decimals) }
        let raw = chance(0.4)
        switch Int.random(in: 0..<9, using: &generator) {
        case 0: return .null
        case 1: return .bool(chance(0.5))
        case 2: return raw ? .int(Int64(bitPattern: rawBits())) : pick(chance(0.5) ? RandomPools.ints : RandomPools.numericEdges)
        case 3: return raw ? .double(Double(bitPattern: rawBits())) : pick(chance(0.5) ? RandomPools.doubles : RandomPools.numericEdges)
        case 4: return raw ? .string(rawString()) : pick(RandomPools.strings)
        case 5: return raw ? .bytes(rawBytes()) : pick(RandomPools.bytes)
        case 6:
            if raw { return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: rawBits()))) }
            return pick(RandomPools.dates)
        case 7:
            guard depth > 0, raw else { return pick(RandomPools.nested) }
            return .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in value(depth: depth - 1) })
        default:
            guard depth > 0, raw else { return pick(RandomPools.objects) }
            var object: [String: Value] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                object[chance(0.8) ? pick(RandomPools.objectKeys) : rawString()] = value(depth: depth - 1)
            }
            return .object(object)
        }
    }

    /// Up to `maximumCount` items with attributes of any kind, mostly of the first item type,
    /// with identifiers unique within each type.
    public mutating func items(upTo maximumCount: Int) -> [Item] {
        var items: [Item] = []
        var references: Set<ItemReference> = []
        for _ in 0..<Int.random(in: 0...maximumCount, using: &generator) {
            let itemType = chance(0.9) ? RandomPools.itemTypes[0] : pick(RandomPools.itemTypes)
            let id = itemID()
            guard references.insert(ItemReference(itemType: itemType, id: id)).inserted else { continue }
            var attributes: [String: Value] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                attributes[attributeName()] = value()
            }
            items.append(Item(itemType: itemType, id: id, attributes: attributes))
        }
        return items
    }

    /// An identifier of any kind: pooled or raw, and composite when asked for.
    mutating func itemID() -> ItemID {
        if extras.contains(.compositeIdentifiers) && chance(0.15) {
            return .composite((0..<Int.random(in: 2...3, using: &generator)).map { _ in scalarItemID() })
        }
        return scalarItemID()
    }

    /// A string, integer or bytes identifier: pooled or raw.
    mutating func scalarItemID() -> ItemID {
        let raw = chance(0.3)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: return .int(raw ? Int64(bitPattern: rawBits()) : pick(RandomPools.intIDs))
        case 1: return .string(raw ? rawString() : pick(RandomPools.stringIDs))
        default: return .bytes(raw ? rawBytes() : pick(RandomPools.byteIDs))
        }
    }

    /// 64 bits, made of the top byte of eight draws, so that a ``FuzzInputGenerator`` spends
    /// exactly eight input bytes on them, most significant first.
    mutating func rawBits() -> UInt64 {
        var bits: UInt64 = 0
        for _ in 0..<8 { bits = bits << 8 | generator.next() >> 56 }
        return bits
    }

    /// Up to 8 bytes, one draw each.
    mutating func rawBytes() -> [UInt8] {
        (0..<Int.random(in: 0...8, using: &generator)).map { _ in UInt8(truncatingIfNeeded: generator.next() >> 56) }
    }

    /// A string made of up to 8 raw bytes, with invalid UTF-8 repaired (as U+FFFD).
    mutating func rawString() -> String {
        String(decoding: rawBytes(), as: UTF8.self)
    }
}
