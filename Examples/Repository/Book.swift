import Foundation
import Persist

/// A book of the catalogue: a plain value, nothing about how it is stored.
struct Book: DataStoreEntity, Equatable {
    static let itemType = "Book"

    struct Author: Codable, Equatable {
        var name: String
        var surname: String
    }

    var id: String
    var title: String
    var authors: [Author]
    var published: Date
}
