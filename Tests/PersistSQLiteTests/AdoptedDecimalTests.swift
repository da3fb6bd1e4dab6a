import Foundation
import Persist
import PersistSQLite
import PersistTestSupport
import Testing

@Suite("Adopted NUMERIC(p,s) columns read their numbers as exact decimals")
struct AdoptedDecimalTests {
    static let legacy = """
        CREATE TABLE invoice (id INTEGER PRIMARY KEY, total NUMERIC(10,2), plain NUMERIC, rate DECIMAL(5));
        INSERT INTO invoice VALUES (1, 0.99, 0.99, 1.5), (2, 5, 5, 2), (3, 'n/a', 'n/a', NULL), (4, 12.5, 12.5, NULL),
                                   (5, NULL, NULL, NULL);
        """

    static func decimal(_ text: String) -> Value { DecimalText.parse(text).map(Value.decimal) ?? .null }

    @Test("NUMERIC(10,2) reads decimals, plain NUMERIC and DECIMAL(5) without a scale read as before")
    func reads() throws {
        try withFileStore(creatingWith: Self.legacy) { store, _ in
            let items = try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "invoice")) }
            #expect(items.map { $0.attributes["total"] ?? .null }
                == [Self.decimal("0.99"), Self.decimal("5"), "n/a", Self.decimal("12.5"), .null])
            #expect(items.map { $0.attributes["plain"] ?? .null } == [0.99, 5, "n/a", 12.5, .null])
            #expect(items.map { $0.attributes["rate"] ?? .null } == [1.5, 2, .null, .null, .null])
        }
    }

    @Test("a long decimal written to NUMERIC(10,2) comes back exactly, and sqlite3 sees its digits")
    func writes() throws {
        try withFileStore(creatingWith: Self.legacy) { store, path in
            let item = Item(itemType: "invoice", id: 6, attributes: ["total": Self.decimal("12345678901234567.89")])
            try store.writeSync { accessor in try accessor.insert(item) }
            #expect(try store.read { try $0.item(ofType: "invoice", id: 6) } == item)
            let raw = try RawDatabase(path)
            defer { raw.close() }
            #expect(try raw.rows("SELECT CAST(total AS TEXT) FROM invoice WHERE id = 6") == [[.text("12345678901234567.89")]])
        }
    }

    @Test("comparisons and sorts on NUMERIC(10,2) treat its numbers as the decimals they read as")
    func compares() throws {
        try withFileStore(creatingWith: Self.legacy) { store, _ in
            try store.writeSync { accessor in
                try accessor.insert(Item(itemType: "invoice", id: 6, attributes: ["total": Self.decimal("12345678901234567.89")]))
            }
            let items = try store.read { try $0.items(forRequest: DataStoreRequest(itemType: "invoice")) }
            for literal: Value in [Self.decimal("0.99"), 0.99, 5, Self.decimal("12.50"), 1e17, "n/a", Self.decimal("1e20")] {
                for predicate: DataStorePredicate in [
                    .attribute("total") == literal, .attribute("total") < literal, .attribute("total") >= literal,
                ] {
                    var request = DataStoreRequest(itemType: "invoice")
                    request.filter = predicate
                    let found = try store.read { try $0.items(forRequest: request) }.map(\.id)
                    #expect(found == request.apply(to: items).map(\.id), "\(predicate)")
                }
            }
            for ascending in [true, false] {
                var request = DataStoreRequest(itemType: "invoice")
                request.sortDescriptors = [DataStoreSortDescriptor(key: "total", ascending: ascending)]
                let sorted = try store.read { try $0.items(forRequest: request) }.map(\.id)
                #expect(sorted == request.apply(to: items).map(\.id))
            }
        }
    }
}
