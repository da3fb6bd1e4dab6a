import Foundation
import Persist
import Testing

/// A model with narrow number types: each stored number must fit the property's type.
struct Gauge: DataStoreEntity, Equatable {
    static let itemType = "Gauge"
    var id: Int
    var level: Float
    var step: Int8
    var total: UInt64
    var peak: Float?
}

/// Numbers that do not fit a model's number types: writes and reads refuse them with
/// `typeMismatch` naming the attribute, the same on the typed and the item path, and never read
/// them as some other number (a `Float` never reads a finite double as infinity).
enum EntityNumberTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("numbers that do not fit a model's number types are typeMismatch naming the attribute, on every read and write",
                        group: .entities) { context in
            let store = try context.makeStore()
            let gauges = [
                Gauge(id: 1, level: 0.1, step: -128, total: UInt64(Int64.max), peak: .greatestFiniteMagnitude),
                Gauge(id: 2, level: -.infinity, step: 127, total: 0, peak: nil),
            ]
            try store.writeSync { accessor in for gauge in gauges { try accessor.insert(gauge) } }
            let refused = expectError(.typeMismatch) {
                try store.writeSync { try $0.insert(Gauge(id: 3, level: 1, step: 1, total: .max, peak: nil)) }
            }
            #expect(refused?.message.contains("total") == true)
            #expect(try allItems(store, Gauge.itemType) == gauges.map { try $0.makeItem() })
            // Reads learn the plan (and SQLite reads REAL columns straight) before the items that do not fit.
            for _ in 0..<3 { #expect(try store.read { try $0.getAll(Gauge.self) } == gauges) }
            let misfits: [(Item, String)] = [
                (Item(itemType: Gauge.itemType, id: 3, attributes: ["level": 1e39, "step": 1, "total": 1]), "level"),
                (Item(itemType: Gauge.itemType, id: 4, attributes: ["level": 1, "step": 1, "total": 1, "peak": -1e300]), "peak"),
                (Item(itemType: Gauge.itemType, id: 5, attributes: ["level": 1, "step": 300, "total": 1]), "step"),
                (Item(itemType: Gauge.itemType, id: 6, attributes: ["level": 1, "step": 1, "total": -1]), "total"),
            ]
            for (item, attribute) in misfits {
                try store.writeSync { try $0.save(item) }
                let general = expectError(.typeMismatch) { try Gauge(item: item) }
                let byID = expectError(.typeMismatch) { try store.read { try $0.getById(Gauge.self, id: Int(item.id.value.intValue ?? 0)) } }
                let all = expectError(.typeMismatch) { try store.read { try $0.getAll(Gauge.self) } }
                #expect(general?.message.contains("\(attribute): expected") == true, "\(general?.message ?? "-")")
                #expect(byID?.message == general?.message && all?.message == general?.message, "\(item.id)")
                try store.writeSync { _ = try $0.deleteItem(ofType: Gauge.itemType, id: item.id) }
            }
            #expect(try store.read { try $0.getAll(Gauge.self) } == gauges)
        },
    ]
}
