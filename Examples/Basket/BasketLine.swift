import Persist

/// One line of the basket: a product with the options the customer chose.
struct BasketLine: DataStoreEntity, Equatable {
    static let itemType = "BasketLine"

    enum Size: String, Codable {
        case small, medium, large
    }

    var id: String
    var product: String
    var size: Size
    var extras: [String]
    var quantity: Int
    var unitPrice: Double

    var summary: String {
        let options = extras.isEmpty ? "no extras" : extras.joined(separator: ", ")
        return "\(quantity) × \(size.rawValue) \(product) (\(options)) at \(unitPrice)"
    }
}
