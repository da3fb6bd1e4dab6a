import CLibPQ
import Foundation
import Persist
import PersistPostgres
import Testing

/// The "Other statements" block of `MigrationGuides/FromLibpq.md`, run on a legacy table made with
/// plain SQL: each call does what the SQL statement its comment names did.
@Suite("The libpq guide's statements")
struct PostgresStatementTests {
    struct SQLFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `body` on a store in a new schema holding the guide's `product` table, made with plain
    /// SQL through the escape hatch, with three products (the second sold); drops the schema
    /// afterwards.
    static func withLegacyStore(_ body: (PostgresDataStore) throws -> Void) throws {
        let url = try #require(ProcessInfo.processInfo.environment["PERSIST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 },
                               "PERSIST_POSTGRES_URL is not set: run the tests with `scripts/postgres-cluster.sh run swift test`")
        let schema = "persist_guide_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        defer { try? PostgresDataStore.dropSchema(schema, at: PostgresURL(url)) }
        let store = PostgresDataStore(url: url, options: .init(schema: schema))
        try store.setup()
        defer { try? store.tearDown() }
        try store.withRawHandle { connection in
            let result = PQexec(connection, """
                SET client_min_messages = warning; CREATE SCHEMA \(schema); SET search_path TO \(schema);
                CREATE TABLE product (id bigint PRIMARY KEY, name text NOT NULL, price numeric(10,2),
                                      sold boolean NOT NULL DEFAULT false);
                INSERT INTO product VALUES (1, 'Kettle', 24.50, false), (2, 'Toaster', 31.00, true), (3, 'Cup', 3.50, false)
                """)
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw SQLFailed(description: String(cString: PQerrorMessage(connection))) }
        }
        try body(store)
    }

    @Test("each call does what its statement did")
    func statements() throws {
        try Self.withLegacyStore { store throws in
            // UPDATE product SET sold = true WHERE price < 5: one statement, and its row count.
            var cheap = DataStoreRequest(itemType: "product")
            cheap.filter = .attribute("price") < 5
            let marked: Int = try store.writeSync { accessor in try accessor.updateItems(forRequest: cheap, setting: ["sold": true]) }
            // DELETE FROM product WHERE sold
            var sold = DataStoreRequest(itemType: "product")
            sold.setFilter(whereAttribute: "sold", equalsValue: true)
            let removed: Int = try store.writeSync { accessor in try accessor.deleteItems(forRequest: sold) }
            // DELETE FROM product WHERE id = $1: by identifier, as the key column is no attribute.
            let existed: Bool = try store.writeSync { accessor in try accessor.deleteItem(ofType: "product", id: 3) }
            // SELECT count(*), sum(price) FROM product WHERE NOT sold
            var unsold = DataStoreRequest(itemType: "product")
            unsold.setFilter(whereAttribute: "sold", equalsValue: false)
            let (count, total) = try store.read { accessor in
                (try accessor.countItems(forRequest: unsold), try accessor.sum(of: "price", forRequest: unsold))
            }
            // price is numeric(10,2): its values, and their sum, are exact decimals.
            #expect(marked == 1 && removed == 2 && !existed && count == 1 && total == .decimal(Decimal(string: "24.5")!), "\(String(describing: total))")

            // INSERT … ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, … (every column)
            try store.writeSync { accessor in
                try accessor.save(Item(itemType: "product", id: 1, attributes: ["name": "Kettle", "price": 22.0, "sold": false]))
            }
            // COPY product FROM STDIN, or BEGIN; INSERT …; COMMIT: one write block, one transaction.
            let rows: [(id: Int64, name: String, price: Double)] = [(4, "Mug", 6.5), (5, "Teapot", 18.0)]
            try store.writeSync { accessor in
                for row in rows {
                    try accessor.insert(Item(itemType: "product", id: .int(row.id),
                                             attributes: ["name": .string(row.name), "price": .double(row.price)]))
                }
            }
            let all = try store.read { accessor in try accessor.items(forRequest: DataStoreRequest(itemType: "product")) }
            #expect(all.map(\.id) == [1, 4, 5] && all.first?["price"] == .decimal(22) && all.allSatisfy { $0["sold"] == false },
                    "the DEFAULT applies to inserted rows: \(all)")
        }
    }

    @Test("save is no ON CONFLICT DO UPDATE of some columns: a column it leaves out becomes NULL, or NOT NULL refuses it")
    func saveReplacesEveryColumn() throws {
        try Self.withLegacyStore { store throws in
            try store.writeSync { accessor in try accessor.save(Item(itemType: "product", id: 1, attributes: ["name": "Kettle", "sold": true])) }
            #expect(try store.read { accessor in try accessor.item(ofType: "product", id: 1) }?.attributes == ["name": "Kettle", "sold": true])
            #expect {
                try store.writeSync { accessor in try accessor.save(Item(itemType: "product", id: 1, attributes: ["name": "Kettle"])) }
            } throws: { ($0 as? DataStoreError)?.code == .invalidArgument }
        }
    }
}
