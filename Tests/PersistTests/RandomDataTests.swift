import Foundation
import Persist
import PersistConformance
import Testing

@Suite("Random data for the differential test and the fuzz target")
struct RandomDataTests {
    @Test("a fuzz input generator spends one byte per choice and spreads it evenly over the range")
    func oneBytePerChoice() {
        for count in [1, 2, 3, 7, 10, 100, 256] {
            var hits = [Int](repeating: 0, count: count)
            for byte in UInt8.min...UInt8.max {
                var generator = FuzzInputGenerator([byte, 0xAA])
                hits[Int.random(in: 0..<count, using: &generator)] += 1
                #expect(generator.consumed == 1)
            }
            #expect(hits.max()! - hits.min()! <= 1, "choices among \(count): \(hits)")
        }
        var generator = FuzzInputGenerator([0, 127, 255])
        let fractions = (0..<3).map { _ in Double.random(in: 0..<1, using: &generator) }
        #expect(fractions[0] < 0.01 && abs(fractions[1] - 0.5) < 0.01 && fractions[2] > 0.99)
        #expect(generator.consumed == 3)
    }

    @Test("a spent fuzz input reads as zero bytes, so generation still ends")
    func exhaustedInput() {
        var random = RandomData(generator: FuzzInputGenerator([]), variety: .anything)
        #expect(random.items(upTo: 12) == [])
        #expect(random.value() == .null)
        _ = random.request(itemCount: 0)
    }

    @Test("the same input or seed gives the same data")
    func deterministic() {
        let input = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        var first = RandomData(generator: FuzzInputGenerator(input), variety: .anything)
        var second = RandomData(generator: FuzzInputGenerator(input), variety: .anything)
        #expect(first.items(upTo: 12) == second.items(upTo: 12))
        #expect(first.request(itemCount: 12) == second.request(itemCount: 12))
        var seeded = RandomData(seed: 5)
        var again = RandomData(seed: 5)
        #expect(seeded.items(perType: 10) == again.items(perType: 10))
        #expect(seeded.request(itemCount: 10) == again.request(itemCount: 10))
    }

    @Test("pooled data mixes kinds within attributes, mostly keeping each attribute's own kind")
    func pooledKinds() {
        var random = RandomData(seed: 11)
        let items = random.items(perType: 60)
        for itemType in ["Alpha", "Beta"] {
            var kinds: [String: [Value.Kind: Int]] = [:]
            for item in items where item.itemType == itemType {
                for (name, value) in item.attributes { kinds[name, default: [:]][value.kind, default: 0] += 1 }
            }
            #expect(kinds.values.contains { $0.count > 1 }, "\(itemType): no attribute mixes kinds: \(kinds)")
            for (name, counts) in kinds {
                let total = counts.values.reduce(0, +)
                #expect((counts.values.max() ?? 0) * 2 > total, "\(itemType).\(name) lost its main kind: \(counts)")
            }
        }
    }
}
