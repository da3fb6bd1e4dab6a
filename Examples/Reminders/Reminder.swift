import Foundation
import Persist

/// A reminder as a plain value, for lists and view models.
struct Reminder: DataStoreEntity, Equatable {
    static let itemType = "Reminder"
    var id: UUID
    var title: String?
    var completedTimestamp: Date?
}
