import Foundation
import Persist
import PersistSQLite

/// 10,000 SQLite orders read with their 50,000 lines through an include, in one read block,
/// against one hand-written `LEFT JOIN` reading the same columns. Both sides sum each order's
/// quantities and must agree. The statements the library ran are counted, not computed: a trace
/// on the store's connections (``SQLiteStatementCounter``) records them in one more, untimed run.
struct IncludeScenario: BenchmarkScenario {
    let name = "include-sqlite"
    let defaultItems = 10_000

    func run(items: Int, in directory: URL, repetitions: Int) throws -> BenchmarkResult {
        let path = directory.appendingPathComponent("include.sqlite").path
        try SQLiteDataStore.deleteFiles(atPath: path)
        try SQLiteStatementCounter.install()
        let store = SQLiteDataStore(path: path, options: .init(logger: .benchmark))
        try store.setup()
        defer { try? store.tearDown() }
        let relation = try BenchmarkOrders.write(orders: items, to: store)
        // Opened after the store made the tables: it sees them and their index.
        let raw = try RawSQLite(path: path)
        let join = try raw.prepare("""
            SELECT o."persist_id", o."customer", o."status", o."discount", \
            l."persist_id", l."orderId", l."product", l."quantity", l."price" \
            FROM "Order" o LEFT JOIN "OrderLine" l ON l."orderId" = o."persist_id" ORDER BY o."persist_id", l."persist_id"
            """)
        var librarySums: [OrderSum] = []
        var baselineSums: [OrderSum] = []
        let (library, baseline, peak) = try AlternatingMeasurement(repetitions: repetitions).run(
            prepare: {},
            library: { librarySums = try BenchmarkOrders.quantities(in: store, via: relation) },
            baseline: {
                var sums = OrderSumAccumulator()
                while try join.step() {
                    let order = BenchmarkOrder(id: Int(join.int64(0)), customer: join.string(1), status: join.string(2),
                                               discount: join.double(3))
                    let line = join.isNull(4) ? nil : BenchmarkOrderLine(
                        id: Int(join.int64(4)), orderId: Int(join.int64(5)), product: join.string(6),
                        quantity: Int(join.int64(7)), price: join.double(8))
                    sums.add(order, line)
                }
                join.reset()
                baselineSums = sums.sums
            })
        let (countedSums, statements) = try SQLiteStatementCounter.recording {
            try BenchmarkOrders.quantities(in: store, via: relation)
        }
        let expected = BenchmarkOrders.expected(orders: items)
        guard librarySums == expected, countedSums == expected else {
            throw BenchmarkError("the include's sums differ from the dataset's")
        }
        guard baselineSums == expected else { throw BenchmarkError("the JOIN's sums differ from the dataset's") }
        let lines = items * BenchmarkOrders.linesPerOrder
        return BenchmarkResult(
            scenario: name, items: items, library: library, baseline: baseline, peak: peak,
            note: "\(items) orders with \(lines) lines in one read block; the library ran \(statements.count) SQL "
                + "statements (measured: \(StatementSummary.describe(statements))), the baseline 1 JOIN",
            measurements: ["statements": Double(statements.count), "lines": Double(lines)])
    }
}
