import Foundation
import Persist
import Testing

/// The key of a ``KeyedSample``: an integer and a string, several samples sharing the integer.
struct SampleKey: Codable, Hashable, Sendable {
    var group: Int64
    var code: String
}

/// A model with a struct identifier and decimals, stored as two twin types: one through the typed
/// path, one through items made by `makeItem()`.
struct KeyedSample<Twin: EntitySampleTwin>: DataStoreEntity, Equatable {
    static var itemType: String { Twin.itemType + "Keyed" }
    var id: SampleKey
    var amount: Decimal
    var discount: Decimal?
    var count: Int

    /// Equal as the values stored: decimals by number, NaN equal to NaN.
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.count == rhs.count && Value.decimal(lhs.amount) == Value.decimal(rhs.amount)
            && lhs.discount.map(Value.decimal) == rhs.discount.map(Value.decimal)
    }

    /// The same values under the other twin.
    func twin<Other: EntitySampleTwin>(_ other: Other.Type) -> KeyedSample<Other> {
        KeyedSample<Other>(id: id, amount: amount, discount: discount, count: count)
    }
}

/// Random entities with struct identifiers and decimals through the typed path and the item path,
/// for stores that keep composite identifiers and exact decimals.
enum EntityCompositeDifferentialTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("random entities with struct identifiers and decimals are identical through the typed path and the item path",
                        group: .differential, requires: [.compositeIdentifiers, .exactDecimals]) { context in
            let store = try context.makeStore()
            try run(on: store, seed: DifferentialTests.seed)
        },
    ]

    static let amounts: [Decimal] = (["0", "1.5", "2.50", "-0.1", "12345678901234567.89", "99999999999999999999999999999999999999", "NaN"]
        as [String]).compactMap { DecimalText.parse($0) }

    static func sample(_ number: Int, using random: inout SeededGenerator) -> KeyedSample<TypedTwin> {
        func pick<T>(_ list: [T]) -> T { list[Int.random(in: 0..<list.count, using: &random)] }
        return KeyedSample(
            id: SampleKey(group: Int64(number % 4) - 1, code: pick(["a", "é", "a\u{0}", ""]) + String(number)),
            amount: pick(amounts), discount: Bool.random(using: &random) ? pick(amounts) : nil,
            count: Int.random(in: -5...5, using: &random))
    }

    /// Stores random samples both ways, changes them by `update`, `save`, `deleteById` and
    /// `synchronize`, and checks after each step that both twins hold the same items and read back
    /// the same entities, in identifier order.
    static func run(on store: any DataStore, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed &+ 44)
        var samples = (0..<40).map { sample($0, using: &random) }
        func check(_ step: String) throws {
            let typed = try allItems(store, KeyedSample<TypedTwin>.itemType)
            let items = try allItems(store, KeyedSample<ItemTwin>.itemType)
            #expect(typed.map(\.id) == items.map(\.id), "\(step): identifiers differ")
            #expect(typed.map(\.attributes) == items.map(\.attributes), "\(step): attributes differ")
            // Composite identifiers order component by component: the group, then the code's UTF-8.
            let expected = samples.sorted {
                $0.id.group != $1.id.group ? $0.id.group < $1.id.group : $0.id.code.utf8.lexicographicallyPrecedes($1.id.code.utf8)
            }
            #expect(try store.read { try $0.getAll(KeyedSample<TypedTwin>.self) } == expected, "\(step): typed reads differ")
            #expect(try store.read { try $0.getAll(KeyedSample<ItemTwin>.self) } == expected.map { $0.twin(ItemTwin.self) },
                    "\(step): reads of the item twin differ")
        }
        try store.writeSync { accessor in
            for entry in samples {
                try accessor.insert(entry)
                try accessor.insert(entry.twin(ItemTwin.self).makeItem())
            }
        }
        try check("insert")
        try store.writeSync { accessor in
            for index in stride(from: 0, to: samples.count, by: 3) {
                samples[index].amount = amounts[(index / 3) % amounts.count]
                samples[index].discount = nil
                try accessor.update(samples[index])
                try accessor.save(samples[index].twin(ItemTwin.self).makeItem())
            }
            for index in stride(from: 1, to: samples.count, by: 5).reversed() {
                let removed = samples.remove(at: index)
                #expect(try accessor.deleteById(KeyedSample<TypedTwin>.self, id: removed.id))
                #expect(try accessor.deleteItem(ofType: KeyedSample<ItemTwin>.itemType, id: KeyedSample<ItemTwin>.itemID(for: removed.id)))
            }
        }
        try check("update and delete")
        samples = Array(samples.dropFirst(4)) + (40..<46).map { sample($0, using: &random) }
        samples[0].count += 100
        let wanted = samples
        try store.writeSync { accessor in
            try accessor.synchronize(wanted)
            try accessor.synchronize(wanted.map { $0.twin(ItemTwin.self) })
        }
        try check("synchronize")
    }
}
