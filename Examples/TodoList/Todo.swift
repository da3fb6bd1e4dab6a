import Foundation
import Persist

/// A to-do, stored as an item of type `Todo` with a database-assigned integer identifier.
struct Todo: DataStoreEntity, Equatable {
    static let itemType = "Todo"

    var id: Int
    var title: String
    var done = false
    var due: Date?
    var minutes = 15
}
