import Foundation
import Persist
import PersistPostgres
import Testing

/// PostgreSQL's everyday types on an adopted table: arrays, enums, times, intervals, network
/// addresses, uuid, read and written through the contract as arrays and strings in PostgreSQL's
/// own text.
@Suite("PostgresDataStore reads and writes everyday PostgreSQL types")
struct EverydayTypeTests {
    static let table = """
        CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
        CREATE TABLE everyday (
            id integer PRIMARY KEY, tags text[], counts int[], prices numeric[], feeling mood, feelings mood[],
            at_time time, at_timetz timetz, span interval, host inet, net cidr, mac macaddr, token uuid,
            doc jsonb, code char(3), name varchar(40), small smallint, regular integer, single real,
            day date, local timestamp, moment timestamptz);
        INSERT INTO everyday VALUES (1, '{a,NULL,"b c"}', '{1,2,3}', '{1.50,NULL}', 'ok', '{sad,happy}',
            '04:05:06.5', '04:05:06+02', '1 year 2 mons -3 days 04:05:06.25', '192.168.0.1/24', '10.0.0.0/8',
            '08:00:2B:01:02:03', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '{"k": [1]}', 'abc', 'hello', -2, 70000, 0.5,
            '2024-02-29', '2000-01-01 00:00:00', '2001-01-01 00:00:00+00');
        """

    @Test("each type reads as PostgreSQL prints it")
    func reads() throws {
        try withPostgresStore(creatingWith: Self.table) { store, _ in
            let item = try #require(try store.read { try $0.item(ofType: "everyday", id: 1) })
            #expect(item["tags"] == ["a", .null, "b c"])
            #expect(item["counts"] == [1, 2, 3])
            #expect(item["prices"] == [.decimal(1.5), .null])
            #expect(item["feeling"] == "ok")
            #expect(item["feelings"] == ["sad", "happy"])
            #expect(item["at_time"] == "04:05:06.5")
            #expect(item["at_timetz"] == "04:05:06+02")
            #expect(item["span"] == "1 year 2 mons -3 days +04:05:06.25")
            #expect(item["host"] == "192.168.0.1/24")
            #expect(item["net"] == "10.0.0.0/8")
            #expect(item["mac"] == "08:00:2b:01:02:03")
            #expect(item["token"] == "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
            #expect(item["doc"] == ["k": [1]])
            #expect(item["code"] == "abc")
            #expect(item["name"] == "hello")
            #expect(item["small"] == -2)
            #expect(item["regular"] == 70000)
            #expect(item["single"] == 0.5)
            #expect(item["day"] == .date(Date(timeIntervalSince1970: 1_709_164_800)))
        }
    }

    @Test("values written as strings and arrays read back, and SQL sees them in their types")
    func writes() throws {
        try withPostgresStore(creatingWith: Self.table) { store, schema in
            let written = Item(itemType: "everyday", id: 2, attributes: [
                "tags": ["x", .null], "counts": [], "prices": [.decimal(try #require(Decimal(string: "12345678901234567.89")))], "feeling": "happy",
                "feelings": ["ok"], "at_time": "23:59:59.999999", "at_timetz": "10:00:00-05:30",
                "span": "-1 days +02:00:00", "host": "::1", "net": "2001:db8::/32", "mac": "01:02:03:04:05:06",
                "token": "00000000-0000-0000-0000-0000000000ab",
            ])
            try store.writeSync { try $0.insert(written) }
            #expect(try store.read { try $0.item(ofType: "everyday", id: 2) } == written)
            let connection = try TestServer.connect()
            defer { connection.close() }
            let row = try connection.executeScript("""
                SELECT tags::text, feeling::text, at_time::text, span::text, host::text, net::text, prices::text
                FROM \(schema).everyday WHERE id = 2
                """)
            #expect(try row.text(0, 0) == "{x,NULL}")
            #expect(try row.text(0, 1) == "happy")
            #expect(try row.text(0, 2) == "23:59:59.999999")
            #expect(try row.text(0, 3) == "-1 days +02:00:00")
            #expect(try row.text(0, 4) == "::1/128")
            #expect(try row.text(0, 5) == "2001:db8::/32")
            let prices = try row.text(0, 6)
            #expect(prices == "{12345678901234567.89}")
        }
    }

    @Test("a label the enum does not have, or a string that is not a time, is typeMismatch naming the column",
          arguments: [("feeling", Value.string("angry")), ("at_time", "noon"), ("host", "300.1.1.1"),
                      ("feelings", ["sad", "angry"]), ("counts", ["one"])] as [(String, Value)])
    func mismatch(_ attribute: String, _ value: Value) throws {
        try withPostgresStore(creatingWith: Self.table) { store, _ in
            let error = #expect(throws: DataStoreError.self) {
                try store.writeSync { try $0.insert(Item(itemType: "everyday", id: 3, attributes: [attribute: value])) }
            }
            #expect(error?.code == .typeMismatch)
            #expect(error?.message.contains(attribute) == true)
        }
    }

    @Test("a multi-dimensional array is refused naming the column")
    func multiDimensional() throws {
        try withPostgresStore(creatingWith: "CREATE TABLE grid (id int PRIMARY KEY, cells int[]); "
                              + "INSERT INTO grid VALUES (1, '{{1,2},{3,4}}');") { store, _ in
            let error = #expect(throws: DataStoreError.self) {
                _ = try store.read { try $0.item(ofType: "grid", id: 1) }
            }
            #expect(error?.code == .unsupported)
            #expect(error?.message.contains("\"cells\"") == true)
        }
    }
}
