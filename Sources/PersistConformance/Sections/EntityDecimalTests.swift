import Foundation
import Persist
import Testing

/// A model with money in it.
struct Invoice: DataStoreEntity, Equatable {
    static let itemType = "Invoice"
    var id: Int
    var total: Decimal
    var discount: Decimal?
}

/// `Decimal` properties: stored as exact decimals (which requests compare and sort as numbers) and
/// read back equal on every store and path; the forms earlier versions stored still read.
enum EntityDecimalTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("Decimal properties are stored as exact decimals that requests sort, and read back equal",
                        group: .entities) { context in
            let store = try context.makeStore()
            func decimal(_ text: String) throws -> Decimal {
                let parsed: Decimal? = Decimal(string: text)
                guard let parsed else { throw DataStoreError(.invalidArgument, "\(text) is no decimal number") }
                return parsed
            }
            let invoices = [
                Invoice(id: 1, total: try decimal("12.34"), discount: try decimal("-0.1")),
                Invoice(id: 2, total: 9, discount: nil),
                Invoice(id: 3, total: try decimal("123456789012345678901234567890.5"), discount: 0),
                Invoice(id: 4, total: try decimal("100.5"), discount: .nan),
            ]
            try store.writeSync { accessor in for invoice in invoices { try accessor.insert(invoice) } }
            let items = try allItems(store, Invoice.itemType)
            #expect(items.map { $0["total"] } == invoices.map { .decimal($0.total) })
            #expect(items.map { $0["total"]?.kind } == Array(repeating: .decimal, count: 4))
            #expect(items.map { $0["discount"] } == [.decimal(try decimal("-0.1")), nil, .decimal(0), .decimal(.nan)])
            var cheapestFirst = DataStoreRequest(itemType: Invoice.itemType)
            cheapestFirst.filter = .attribute("total") < 50
            cheapestFirst.setSort(byKey: "total", ascending: true)
            // Read twice: the first read learns the type's plan, the second uses it.
            for _ in 0..<2 {
                let fetched = try store.read { try $0.getAll(Invoice.self) }
                #expect(fetched.map(\.total) == invoices.map(\.total))
                #expect(fetched.map { $0.discount?.isNaN } == [false, nil, false, true])
                #expect(try store.read { try $0.getAll(Invoice.self, forRequest: cheapestFirst) }.map(\.id) == [2, 1])
            }
        },
        ConformanceTest("Decimal properties stored as earlier versions stored them (a double, an integer, decimal text) still read",
                        group: .entities) { context in
            let store = try context.makeStore()
            let earlier: [(Value, String)] = [(12.34, "12.34"), (9, "9"), ("123456789012345678901234567890.5", "123456789012345678901234567890.5"),
                                              (.double(.nan), "NaN"), (.decimal(2), "2")]
            for (stored, expected) in earlier {
                try store.writeSync { try $0.save(Item(itemType: Invoice.itemType, id: 1, attributes: ["total": stored])) }
                let read = try store.read { try $0.getById(Invoice.self, id: 1) }?.total
                #expect(read.map(DecimalText.text) == expected, "\(stored)")
            }
        },
        ConformanceTest("a stored value that holds no Decimal is typeMismatch naming the attribute; Foundation's own form still reads",
                        group: .entities) { context in
            let store = try context.makeStore()
            // What Foundation's own Codable conformance writes for 12.34.
            let fields: Value = ["exponent": -2, "length": 1, "isNegative": false, "isCompact": true,
                                 "mantissa": [1234, 0, 0, 0, 0, 0, 0, 0]]
            try store.writeSync { try $0.save(Item(itemType: Invoice.itemType, id: 1, attributes: ["total": fields])) }
            #expect(try store.read { try $0.getById(Invoice.self, id: 1) }?.total == Decimal(string: "12.34"))
            for misfit in [Value.string("12abc"), .double(.infinity), .double(1e300), .bool(true), .string("")] {
                try store.writeSync { try $0.save(Item(itemType: Invoice.itemType, id: 1, attributes: ["total": misfit])) }
                let error = expectError(.typeMismatch) { try store.read { try $0.getById(Invoice.self, id: 1) } }
                #expect(error?.message.contains("total") == true, "\(misfit): \(error?.message ?? "no error")")
            }
        },
    ]
}
