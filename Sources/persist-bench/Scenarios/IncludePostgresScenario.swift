import CLibPQ
import Foundation
import Persist
import PersistPostgres

/// 10,000 PostgreSQL orders read with their 50,000 lines through an include, in one read block,
/// against one hand-written `LEFT JOIN` reading the same columns through raw libpq. Both sides
/// sum each order's quantities and must agree. The statements and round trips of the library
/// are counted, not computed: a second store on the same schema, connected through a
/// ``PostgresCountingProxy``, runs the read once more, untimed.
struct IncludePostgresScenario: BenchmarkScenario {
    let name = "include-postgres"
    let defaultItems = 10_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let url = try BenchmarkServer.url()
        let schema = BenchmarkServer.newSchema(name)
        defer { BenchmarkDataset.dropPostgres(schema, url: url) }
        let store = PostgresDataStore(url: url, options: .init(schema: schema, logger: .benchmark))
        try store.setup()
        defer { try? store.tearDown() }
        let relation = try BenchmarkOrders.write(orders: items, to: store)
        let raw = try RawPostgres(url: url)
        try raw.execute(#"ANALYZE "\#(schema)"."Order"; ANALYZE "\#(schema)"."OrderLine""#)
        try raw.prepare("join", """
            SELECT o.persist_id, o.customer, o.status, o.discount, l.persist_id, l."orderId", l.product, l.quantity, l.price \
            FROM "\(schema)"."Order" o LEFT JOIN "\(schema)"."OrderLine" l ON l."orderId" = o.persist_id \
            ORDER BY o.persist_id, l.persist_id
            """, types: [])
        var librarySums: [OrderSum] = []
        var baselineSums: [OrderSum] = []
        let (library, baseline, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: {},
            library: { librarySums = try BenchmarkOrders.quantities(in: store, via: relation) },
            baseline: {
                let result = try raw.run("join", [])
                defer { PQclear(result) }
                var sums = OrderSumAccumulator()
                for index in 0..<PQntuples(result) {
                    let row = RawPostgres.Row(result: result, row: index)
                    let order = BenchmarkOrder(id: Int(row.int64(0)), customer: row.string(1), status: row.string(2),
                                               discount: row.double(3))
                    let line = row.isNull(4) ? nil : BenchmarkOrderLine(
                        id: Int(row.int64(4)), orderId: Int(row.int64(5)), product: row.string(6),
                        quantity: Int(row.int64(7)), price: row.double(8))
                    sums.add(order, line)
                }
                baselineSums = sums.sums
            })
        let expected = BenchmarkOrders.expected(orders: items)
        guard librarySums == expected else { throw BenchmarkError("the include's sums differ from the dataset's") }
        guard baselineSums == expected else { throw BenchmarkError("the JOIN's sums differ from the dataset's") }
        let lines = items * BenchmarkOrders.linesPerOrder
        var note = "\(items) orders with \(lines) lines in one read block, the baseline 1 JOIN; "
        var measurements = ["lines": Double(lines)]
        if let traffic = try countTraffic(url: url, schema: schema, relation: relation, expected: expected) {
            note += "the library ran \(traffic.statements.count) SQL statements in \(traffic.roundTrips) round trips "
                + "(measured: \(StatementSummary.describe(traffic.statements)))"
            measurements["statements"] = Double(traffic.statements.count)
            measurements["round_trips"] = Double(traffic.roundTrips)
        } else {
            note += "statements not counted: the server is not at an IPv4 address the counting proxy can reach"
        }
        return BenchmarkResult(scenario: name, items: items, library: library, baseline: baseline, peak: peak,
                               note: note, measurements: measurements)
    }

    /// What one read of the include sends, through a counting proxy, after one read that
    /// prepares the store's statements; `nil` when the server's address is not an IPv4 one.
    private func countTraffic(url: String, schema: String, relation: DataStoreRelation,
                              expected: [OrderSum]) throws -> PostgresCountingProxy.Traffic? {
        guard var components = URLComponents(string: url), let host = components.host, let port = components.port else {
            return nil
        }
        let address = host == "localhost" ? "127.0.0.1" : host
        guard address.split(separator: ".").count == 4, address.allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
        let proxy = try PostgresCountingProxy(host: address, port: port)
        defer { proxy.stop() }
        components.host = "127.0.0.1"
        components.port = proxy.port
        guard let proxied = components.string else { return nil }
        let store = PostgresDataStore(url: proxied, options: .init(schema: schema, logger: .benchmark))
        try store.setup()
        defer { try? store.tearDown() }
        _ = try BenchmarkOrders.quantities(in: store, via: relation)
        let (sums, traffic) = try proxy.recording { try BenchmarkOrders.quantities(in: store, via: relation) }
        guard sums == expected else { throw BenchmarkError("the include's sums differ from the dataset's through the proxy") }
        guard !traffic.incomplete else { throw BenchmarkError("the counting proxy could not read the store's traffic (TLS?)") }
        return traffic
    }
}
