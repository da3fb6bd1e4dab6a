import Foundation
import Persist

/// A product as the app sees it: a plain value. The legacy table's columns become its properties.
struct Product: DataStoreEntity, Equatable {
    static let itemType = "product"
    var id: Int
    var name: String
    /// A `numeric(10,2)` column: an exact decimal, never a double.
    var price: Decimal
    var sold: Bool
}

/// The "after": every call site on the `DataStore` API, with a typed entity, on any store.
struct Inventory {
    let store: any DataStore

    func add(_ product: Product) throws {
        try store.writeSync { accessor in try accessor.insert(product) }
    }

    func markSold(_ id: Int) throws {
        try store.writeSync { accessor in
            guard var product = try accessor.getById(Product.self, id: id) else { return }
            product.sold = true
            try accessor.update(product)
        }
    }

    func unsoldNames() throws -> [String] {
        var request = DataStoreRequest(itemType: Product.itemType)
        request.filter = .attribute("sold") == false
        return try store.read { accessor in try accessor.getAll(Product.self, forRequest: request).map(\.name) }
    }
}
