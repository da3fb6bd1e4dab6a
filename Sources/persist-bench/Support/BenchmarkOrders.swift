import Foundation
import Persist

/// An order of the include scenarios, deterministic from its number.
struct BenchmarkOrder: DataStoreEntity, Equatable {
    static let itemType = "Order"

    var id: Int
    var customer: String
    var status: String
    var discount: Double

    init(number: Int) {
        id = number
        customer = "Customer \(number % 1_000)"
        status = ["open", "paid", "shipped", "closed"][number % 4]
        discount = Double(number % 20) / 100
    }

    init(id: Int, customer: String, status: String, discount: Double) {
        self.id = id
        self.customer = customer
        self.status = status
        self.discount = discount
    }
}

/// A line of an order, `OrderLine(orderId) → Order`, deterministic from its number.
struct BenchmarkOrderLine: DataStoreEntity, Equatable {
    static let itemType = "OrderLine"

    var id: Int
    var orderId: Int
    var product: String
    var quantity: Int
    var price: Double

    /// Line number `number` of the dataset: line `number % linesPerOrder` of order `number / linesPerOrder`.
    init(number: Int, linesPerOrder: Int) {
        id = number
        orderId = number / linesPerOrder
        product = "Product \((number &* 7_919) % 500)"
        quantity = 1 + (number &* 31) % 9
        price = Double((number &* 2_654_435_761) % 10_000) / 100
    }

    init(id: Int, orderId: Int, product: String, quantity: Int, price: Double) {
        self.id = id
        self.orderId = orderId
        self.product = product
        self.quantity = quantity
        self.price = price
    }
}

/// The include scenarios' data and the library's side of them.
enum BenchmarkOrders {
    static let linesPerOrder = 5

    /// Writes `orders` orders and their lines into `store` in write blocks of 10,000 items, then
    /// declares `OrderLine(orderId) → Order`, which makes the foreign key and the index on
    /// `orderId`. Returns the relation.
    static func write(orders: Int, to store: any DataStore) throws -> DataStoreRelation {
        var start = 0
        while start < orders {
            let end = min(start + 10_000, orders)
            try store.writeSync { accessor in
                for number in start..<end { try accessor.insert(BenchmarkOrder(number: number)) }
            }
            start = end
        }
        let lines = orders * linesPerOrder
        start = 0
        while start < lines {
            let end = min(start + 10_000, lines)
            try store.writeSync { accessor in
                for number in start..<end {
                    try accessor.insert(BenchmarkOrderLine(number: number, linesPerOrder: linesPerOrder))
                }
            }
            start = end
        }
        return try store.writeSync { accessor in
            try accessor.ensureRelation(ofType: BenchmarkOrderLine.itemType, on: ["orderId"],
                                        to: BenchmarkOrder.itemType, onDelete: .cascade)
        }
    }

    /// The library's side: every order with its lines in one read block, and for each order (in
    /// identifier order) the sum of its lines' quantities.
    static func quantities(in store: any DataStore, via relation: DataStoreRelation) throws -> [OrderSum] {
        let result = try store.read { accessor in
            try accessor.items(forRequest: DataStoreRequest(itemType: BenchmarkOrder.itemType),
                               including: [.referring(via: relation)])
        }
        var sums: [OrderSum] = []
        sums.reserveCapacity(result.items.count)
        for order in result.items {
            guard case .int(let id) = order.id else { throw BenchmarkError("order \(order.id) has no integer identifier") }
            var sum = OrderSum(order: id, lines: 0, quantity: 0)
            for line in result.items(relatedTo: order, via: relation) {
                sum.lines += 1
                sum.quantity += line["quantity"]?.intValue ?? 0
            }
            sums.append(sum)
        }
        return sums.sorted { $0.order < $1.order }
    }

    /// The expected sums, from the dataset's definition, for checking both sides.
    static func expected(orders: Int) -> [OrderSum] {
        (0..<orders).map { order in
            let quantity = (0..<linesPerOrder).reduce(Int64(0)) { sum, line in
                sum + Int64(BenchmarkOrderLine(number: order * linesPerOrder + line, linesPerOrder: linesPerOrder).quantity)
            }
            return OrderSum(order: Int64(order), lines: linesPerOrder, quantity: quantity)
        }
    }
}

/// One order's lines, counted and summed.
struct OrderSum: Equatable {
    var order: Int64
    var lines: Int
    var quantity: Int64
}

/// The baselines' sums: rows of a join, ordered by order, added one at a time.
struct OrderSumAccumulator {
    private(set) var sums: [OrderSum] = []

    /// Adds a row of `order` and one of its lines (`nil` for an order without lines).
    mutating func add(_ order: BenchmarkOrder, _ line: BenchmarkOrderLine?) {
        if sums.last?.order != Int64(order.id) { sums.append(OrderSum(order: Int64(order.id), lines: 0, quantity: 0)) }
        guard let line else { return }
        sums[sums.count - 1].lines += 1
        sums[sums.count - 1].quantity += Int64(line.quantity)
    }
}
