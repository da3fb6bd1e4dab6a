import Foundation
import Persist
import PersistPostgres
import Testing

/// `numeric` columns read and write exact decimals.
@Suite("PostgresDataStore keeps numerics exact")
struct NumericDecimalTests {
    static let table = """
        CREATE TABLE ledger (id integer PRIMARY KEY, amount numeric(30,2), free numeric);
        INSERT INTO ledger VALUES (1, 12345678901234567.89, 'NaN'), (2, -0.05, 1e40), (3, 10, '123456789012345678901234567890123456789.5');
        """

    @Test("numeric(30,2) holds 12345678901234567.89 exactly, and NaN reads as Decimal.nan")
    func exact() throws {
        try withPostgresStore(creatingWith: Self.table) { store, _ in
            let item = try #require(try store.read { try $0.item(ofType: "ledger", id: 1) })
            #expect(item["amount"] == .decimal(try #require(Decimal(string: "12345678901234567.89"))))
            #expect(item["free"]?.decimalValue?.isNaN == true)
            var request = DataStoreRequest(itemType: "ledger")
            request.filter = .comparison(attribute: "amount", .equal, .decimal(try #require(Decimal(string: "12345678901234567.89"))))
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [.int(1)])
            request.filter = .comparison(attribute: "amount", .less, .int(0))
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [.int(2)])
        }
    }

    @Test("a value of more than 38 digits is refused naming the column, never rounded")
    func tooLong() throws {
        try withPostgresStore(creatingWith: Self.table) { store, _ in
            let error = #expect(throws: DataStoreError.self) {
                _ = try store.read { try $0.item(ofType: "ledger", id: 3) }
            }
            #expect(error?.code == .unsupported)
            #expect(error?.message.contains("\"free\"") == true)
        }
    }

    @Test("decimals, integers and NaN write into numeric columns and read back exactly")
    func writes() throws {
        try withPostgresStore(creatingWith: Self.table) { store, schema in
            let amount = try #require(Decimal(string: "99999999999999999999999999.99"))
            try store.writeSync {
                try $0.insert(Item(itemType: "ledger", id: 4, attributes: ["amount": .decimal(amount), "free": .decimal(.nan)]))
                try $0.insert(Item(itemType: "ledger", id: 5, attributes: ["amount": 7]))
            }
            let four = try #require(try store.read { try $0.item(ofType: "ledger", id: 4) })
            #expect(four["amount"] == .decimal(amount))
            #expect(four["free"]?.decimalValue?.isNaN == true)
            #expect(try store.read { try $0.item(ofType: "ledger", id: 5) }?["amount"] == .decimal(7))
            let connection = try TestServer.connect()
            defer { connection.close() }
            let row = try connection.executeScript("SELECT amount::text FROM \(schema).ledger WHERE id = 4")
            #expect(try row.text(0, 0) == "99999999999999999999999999.99")
        }
    }

    @Test("in a column of mixed kinds, decimals filter and sort as numbers with integers and doubles")
    func mixedColumn() throws {
        try withPostgresStore { store, _ in
            let values: [Value] = [
                "text", .int(2), .decimal(try #require(Decimal(string: "1.0000000000000000000001"))), .double(1.5),
                .decimal(try #require(Decimal(string: "-0.1"))), .int(1), .decimal(try #require(Decimal(string: "2.5"))),
            ]
            try store.writeSync { accessor in
                for (index, value) in values.enumerated() {
                    try accessor.insert(Item(itemType: "mix", id: .int(Int64(index)), attributes: ["v": value]))
                }
            }
            var request = DataStoreRequest(itemType: "mix")
            request.filter = .comparison(attribute: "v", .greater, .int(1))
            request.sortDescriptors = [DataStoreSortDescriptor(key: "v", ascending: true)]
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [2, 3, 1, 6])
            request.filter = .comparison(attribute: "v", .equal, .decimal(2))
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [1])
            request.filter = .comparison(attribute: "v", .lessOrEqual, .decimal(try #require(Decimal(string: "1.0000000000000000000001"))))
            #expect(try store.read { try $0.items(forRequest: request) }.map(\.id) == [4, 5, 2])
        }
    }
}
